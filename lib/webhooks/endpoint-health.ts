import "server-only";

import { and, eq, isNotNull, lte, sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";

import { DISABLE_AFTER_FAILING_MS } from "./retry-schedule";

interface Outcome {
  attemptedAt: Date;
  succeeded: boolean;
}

/**
 * Moves an endpoint's failing streak by a batch of attempts: it starts at the
 * first failure since the last success, and five days of it disable the
 * endpoint. Writes the endpoint row only when the streak changes; locks it
 * always, in the caller's transaction.
 */
export async function recordEndpointHealth(
  ctx: Ctx,
  endpointId: string,
  attempts: Outcome[],
  now: Date,
): Promise<void> {
  // Locked first, in every batch: a rotation locks the endpoint before its deliveries, and the caller's updates of them follow.
  const [endpoint] = await ctx.db
    .select({ id: webhookEndpoints.id, failingSince: webhookEndpoints.failingSince })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpointId))
    .for("no key update");
  if (!endpoint) return;
  const lastSuccess = Math.max(...attempts.filter((a) => a.succeeded).map((a) => a.attemptedAt.getTime()));
  const failuresSince = attempts
    .filter((a) => !a.succeeded && a.attemptedAt.getTime() > lastSuccess)
    .map((a) => a.attemptedAt.getTime());
  const firstFailure = failuresSince.length > 0 ? new Date(Math.min(...failuresSince)) : null;
  if (lastSuccess > -Infinity) {
    // A success ends the streak; failures after it in the batch start the next one.
    if (!firstFailure && !endpoint.failingSince) return;
    const ofEndpoint = eq(webhookEndpoints.id, endpoint.id);
    await ctx.db
      .update(webhookEndpoints)
      .set({ failingSince: firstFailure })
      .where(firstFailure ? ofEndpoint : and(ofEndpoint, isNotNull(webhookEndpoints.failingSince)));
    return;
  }
  if (!firstFailure) return;
  await ctx.db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${firstFailure.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpoint.id));
  await ctx.db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledAt: now, disabledReason: "every attempt failed for 5 days", updatedAt: now })
    .where(
      and(
        eq(webhookEndpoints.id, endpoint.id),
        eq(webhookEndpoints.enabled, true),
        lte(webhookEndpoints.failingSince, new Date(now.getTime() - DISABLE_AFTER_FAILING_MS)),
      ),
    );
}
