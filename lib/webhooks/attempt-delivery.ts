import "server-only";
import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { withTransaction, type Ctx } from "@/lib/context";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { postWebhook } from "./post-webhook";
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from "./retry-schedule";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";

export type AttemptOutcome = { done: "succeeded" | "gave_up" | "endpoint_disabled" | "superseded" } | { done: false; retryAt: string };

/** The body receivers get; its `id` is inside the signed bytes and is their de-duplication key. */
export function envelope(event: typeof events.$inferSelect): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data });
}

/**
 * Makes the next attempt of one delivery, signed afresh with the endpoint's
 * current secret, and records it. Returns when to try again, or why not.
 * A run whose generation is stale (a rotation started a newer one) stops.
 */
export async function attemptDelivery(ctx: Ctx, deliveryId: string, generation: number): Promise<AttemptOutcome> {
  const [row] = await ctx.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.delivery.generation !== generation) return { done: "superseded" };
  const { delivery, endpoint, event } = row;
  if (delivery.status === "succeeded") return { done: "succeeded" };
  if (delivery.status === "failed") return { done: "gave_up" };
  if (!endpoint.enabled) {
    await ctx.db.update(webhookDeliveries).set({ status: "failed", nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
    return { done: "endpoint_disabled" };
  }

  const body = envelope(event);
  const attemptedAt = ctx.clock.now();
  const result = await postWebhook(endpoint.url, body, {
    "content-type": "application/json",
    "user-agent": "mailservice-webhooks/1",
    [SIGNATURE_HEADER]: signatureHeader(endpoint.signingSecret, body, attemptedAt.getTime()),
    "x-service-event-id": event.id,
    "x-service-event-type": event.type,
  });
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const attempt = delivery.attemptCount + 1;

  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    await tx.db.insert(webhookAttempts).values({
      id: newId("wha"),
      deliveryId,
      attemptedAt,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      responseExcerpt: result.responseExcerpt,
      error: result.error ?? (succeeded ? null : `receiver answered ${result.statusCode}`),
    });
    const delay = succeeded ? null : retryDelayMs(attempt);
    const retryAt = delay === null ? null : new Date(now.getTime() + delay);
    const status = succeeded ? "succeeded" : retryAt ? "pending" : "failed";
    await tx.db
      .update(webhookDeliveries)
      .set({ status, attemptCount: attempt, lastAttemptAt: attemptedAt, nextAttemptAt: retryAt })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.generation, generation)));
    // A success only has a streak to end when the endpoint was failing (as last read: a miss is ended by the next success).
    if (!succeeded || endpoint.failingSince) await recordEndpointHealth(tx, endpoint.id, succeeded, now);
    if (succeeded) return { done: "succeeded" };
    if (!retryAt) return { done: "gave_up" };
    return { done: false, retryAt: retryAt.toISOString() };
  });
}

/** Success clears the failing streak; failing for five days disables the endpoint. */
async function recordEndpointHealth(ctx: Ctx, endpointId: string, succeeded: boolean, now: Date): Promise<void> {
  if (succeeded) {
    await ctx.db
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(eq(webhookEndpoints.id, endpointId), isNotNull(webhookEndpoints.failingSince)));
    return;
  }
  await ctx.db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpointId));
  await ctx.db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledAt: now, disabledReason: "every attempt failed for 5 days", updatedAt: now })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true), lte(webhookEndpoints.failingSince, new Date(now.getTime() - DISABLE_AFTER_FAILING_MS))));
}
