import "server-only";
import { and, eq, or, sql } from "drizzle-orm";
import { emitEvents } from "@/inngest/emit";
import { webhookDeliveryRequested } from "@/inngest/events";
import type { Ctx } from "@/lib/context";
import { webhookDeliveries, webhookEndpoints, type events } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

type EventRow = typeof events.$inferInsert & { id: string };
type Delivery = typeof webhookDeliveries.$inferSelect;

/**
 * What orders deliveries: events about one contact (or, for campaign events,
 * one campaign) reach an endpoint one at a time, in the order they happened.
 */
function orderKey(endpointId: string, event: EventRow): string {
  const about = event.data.contact_id ?? event.data.campaign_id ?? event.id;
  return `${endpointId}:${String(about)}`;
}

/**
 * Fans events out to every enabled endpoint of their workspace that wants
 * their type: a delivery row each and the run that makes it, in the
 * transaction that records the events. The events share a workspace and a
 * type (what one recording writes).
 */
export async function queueDeliveries(ctx: Ctx, events: EventRow[]): Promise<void> {
  const [first] = events;
  if (!first) return;
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, first.workspaceId),
        eq(webhookEndpoints.enabled, true),
        or(sql`cardinality(${webhookEndpoints.eventTypes}) = 0`, sql`${first.type} = any(${webhookEndpoints.eventTypes})`),
      ),
    );
  if (endpoints.length === 0) return;
  const now = ctx.clock.now();
  const wanted = events.flatMap((event) =>
    endpoints.map((endpoint) => ({
      id: newId("whd"),
      workspaceId: event.workspaceId,
      endpointId: endpoint.id,
      eventId: event.id,
      orderKey: orderKey(endpoint.id, event),
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
  // Bounded statements: a large import records thousands of events at once.
  for (let start = 0; start < wanted.length; start += 1000) {
    const rows = await ctx.db
      .insert(webhookDeliveries)
      .values(wanted.slice(start, start + 1000))
      .returning();
    await requestDeliveryRuns(ctx, rows);
  }
}

/** Starts the run that owns each delivery's attempts from now on. */
export async function requestDeliveryRuns(ctx: Ctx, deliveries: Delivery[]): Promise<void> {
  await emitEvents(
    ctx,
    deliveries.map((delivery) => ({
      name: webhookDeliveryRequested.name,
      id: `${delivery.id}:${delivery.generation}`,
      data: { deliveryId: delivery.id, generation: delivery.generation, orderKey: delivery.orderKey },
    })),
  );
}
