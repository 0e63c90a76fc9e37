import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { logger } from "@/lib/log/logger";

type Endpoint = typeof webhookEndpoints.$inferSelect;

/** How long a lease lasts unless renewed: a holder that died leaves the endpoint to the next run after this. */
export const LEASE_MS = 60_000;
/**
 * Renewed this often while its holder posts. The holder stops posting once a whole lease minus this
 * margin has passed since its last confirmed renewal, before another can take it over: a renewal the
 * holder could not make (its database unreachable, its event loop stalled) must not let two post at once.
 */
const RENEW_MS = LEASE_MS / 3;

export interface EndpointLease {
  /** The endpoint as of the last renewal: its URL, secret and state. */
  endpoint: Endpoint;
  /** Whether posting may go on: false once the lease may have lapsed or was lost. */
  held(): boolean;
  /** Renews the lease and reads the endpoint afresh; null when it was deleted or the lease lost. */
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
  let confirmedAt = performance.now();
  let lost = false;
  const write = async (): Promise<Endpoint | null> => {
    const sentAt = performance.now();
    const now = ctx.clock.now();
    const [endpoint] = await ctx.db
      .update(webhookEndpoints)
      .set({ deliveryLeaseToken: token, deliveryLeaseUntil: new Date(now.getTime() + LEASE_MS) })
      .where(and(eq(webhookEndpoints.id, endpointId), or(eq(webhookEndpoints.deliveryLeaseToken, token), isNull(webhookEndpoints.deliveryLeaseUntil), lte(webhookEndpoints.deliveryLeaseUntil, now))))
      .returning();
    if (endpoint) confirmedAt = sentAt;
    else lost = true;
    return endpoint ?? null;
  };

  const first = await write();
  if (!first) {
    const [other] = await ctx.db.select({ until: webhookEndpoints.deliveryLeaseUntil }).from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    return other ? { heldUntil: other.until ?? ctx.clock.now() } : { deleted: true };
  }
  const heartbeat = setInterval(() => {
    write().catch((error: unknown) => logger().warn({ err: error, endpoint_id: endpointId }, "webhook lease renewal failed"));
  }, RENEW_MS);
  heartbeat.unref();
  const lease: EndpointLease = {
    endpoint: first,
    held: () => !lost && performance.now() - confirmedAt < LEASE_MS - RENEW_MS,
    renew: async () => {
      const endpoint = await write();
      if (endpoint) lease.endpoint = endpoint;
      return endpoint;
    },
    release: async () => {
      clearInterval(heartbeat);
      lost = true;
      await ctx.db
        .update(webhookEndpoints)
        .set({ deliveryLeaseToken: null, deliveryLeaseUntil: null })
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.deliveryLeaseToken, token)));
    },
  };
  return { lease };
}
