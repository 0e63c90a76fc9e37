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
 * Fans an event out to every enabled endpoint of its workspace that wants its
 * type: a delivery row each and the run that makes it, in the transaction
 * that records the event.
 */
export async function queueDeliveries(ctx: Ctx, event: EventRow): Promise<void> {
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, event.workspaceId),
        eq(webhookEndpoints.enabled, true),
        or(sql`cardinality(${webhookEndpoints.eventTypes}) = 0`, sql`${event.type} = any(${webhookEndpoints.eventTypes})`),
      ),
    );
  if (endpoints.length === 0) return;
  const now = ctx.clock.now();
  const rows = await ctx.db
    .insert(webhookDeliveries)
    .values(endpoints.map((endpoint) => ({
      id: newId("whd"),
      workspaceId: event.workspaceId,
      endpointId: endpoint.id,
      eventId: event.id,
      orderKey: orderKey(endpoint.id, event),
      nextAttemptAt: now,
      createdAt: now,
    })))
    .returning();
  await requestDeliveryRuns(ctx, rows);
}

/** Starts the run that owns each delivery's attempts from now on. */
export async function requestDeliveryRuns(ctx: Ctx, deliveries: Delivery[]): Promise<void> {
  await emitEvents(ctx, deliveries.map((delivery) => ({
    name: webhookDeliveryRequested.name,
    id: `${delivery.id}:${delivery.generation}`,
    data: { deliveryId: delivery.id, generation: delivery.generation, orderKey: delivery.orderKey },
  })));
}
