import "server-only";

import { randomUUID } from "node:crypto";
import { and, eq, isNull, lte, or } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { logger } from "@/lib/log/logger";

import { DELIVERY_TIMEOUT_MS } from "./post-webhook";

type Endpoint = typeof webhookEndpoints.$inferSelect;

/** How long a lease lasts unless renewed: a holder that died leaves the endpoint to the next run after this. */
export const LEASE_MS = 60_000;
/** Renewed this often while its holder posts. */
const RENEW_MS = 10_000;
/**
 * The holder starts no post once this long has passed since the renewal it last saw confirmed (a renewal
 * it could not make: its database unreachable, its event loop stalled). What it already started ends
 * within two tries of DELIVERY_TIMEOUT_MS, and a renewal's worth of slack covers the hosts' clocks, so
 * every post of the old holder is over before another can take the lease, unless its event loop stalls
 * between the check and the write for longer than that slack (no lease can rule that out; receivers
 * de-duplicate by event id).
 */
const STOP_AFTER_MS = LEASE_MS - 2 * DELIVERY_TIMEOUT_MS - RENEW_MS;
// With less room than two renewals, one late renewal would stop every holder: each step would post nothing.
if (STOP_AFTER_MS < 2 * RENEW_MS) throw new Error("the webhook lease leaves no room to post: lengthen LEASE_MS");

export interface EndpointLease {
  /** The endpoint as the last renewal read it: its URL, secret and state. */
  readonly endpoint: Endpoint;
  /** Whether posting may go on: false once the lease may have lapsed or was lost. */
  held(): boolean;
  /** Renews the lease and reads the endpoint afresh; null when the endpoint was deleted or the lease lost. */
  renew(): Promise<Endpoint | null>;
  /** Gives the lease up at once (the next run need not wait for it to lapse). */
  release(): Promise<void>;
}

export type LeaseOutcome = { lease: EndpointLease } | { heldUntil: Date } | { deleted: true };

/**
 * Takes the right to post an endpoint's deliveries: one holder at a time, so that one contact's
 * deliveries reach the endpoint in order even when a delivery run is taken over while the one before
 * it still posts. The holder renews it in the background until it releases it.
 */
export async function takeEndpointLease(ctx: Ctx, endpointId: string): Promise<LeaseOutcome> {
  const token = randomUUID();
  // Judged on the clock the lease's expiry is written with, as the run that would take it over judges it.
  const now = () => ctx.clock.now().getTime();
  let confirmedAt = now();
  let lost = false;
  // The endpoint as the last write read it; the first is the take, and there is no lease without it.
  let endpoint!: Endpoint;
  // Taking needs the lease free or lapsed; renewing needs it still ours, so a holder that stalled past
  // its lease cannot take it back from the run that took it over, nor a late renewal revive it after release.
  // Every write reads the endpoint too: a rotated secret or a new URL reaches posts within one renewal.
  const write = async (taking: boolean): Promise<Endpoint | null> => {
    const sentAt = now();
    const free = or(
      isNull(webhookEndpoints.deliveryLeaseUntil),
      lte(webhookEndpoints.deliveryLeaseUntil, new Date(sentAt)),
    );
    const [written] = await ctx.db
      .update(webhookEndpoints)
      .set({ deliveryLeaseToken: token, deliveryLeaseUntil: new Date(sentAt + LEASE_MS) })
      .where(and(eq(webhookEndpoints.id, endpointId), taking ? free : eq(webhookEndpoints.deliveryLeaseToken, token)))
      .returning();
    if (written) {
      confirmedAt = sentAt;
      endpoint = written;
    } else lost = true;
    return written ?? null;
  };

  const first = await write(true);
  if (!first) {
    const [other] = await ctx.db
      .select({ until: webhookEndpoints.deliveryLeaseUntil })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    return other ? { heldUntil: other.until ?? ctx.clock.now() } : { deleted: true };
  }
  const heartbeat = setInterval(() => {
    write(false).catch((error: unknown) =>
      logger().warn({ err: error, endpoint_id: endpointId }, "webhook lease renewal failed"),
    );
  }, RENEW_MS);
  heartbeat.unref();
  return {
    lease: {
      get endpoint() {
        return endpoint;
      },
      held: () => !lost && now() - confirmedAt < STOP_AFTER_MS,
      renew: () => write(false),
      release: async () => {
        clearInterval(heartbeat);
        lost = true;
        await ctx.db
          .update(webhookEndpoints)
          .set({ deliveryLeaseToken: null, deliveryLeaseUntil: null })
          .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.deliveryLeaseToken, token)));
      },
    },
  };
}
