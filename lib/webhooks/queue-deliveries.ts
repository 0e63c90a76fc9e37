import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { webhookDeliveries, type events } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { askForRuns, wakeLockKey } from "./request-delivery";

type EventRow = typeof events.$inferInsert & { id: string };

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
 * their type: a delivery row each, and a request for each endpoint's delivery
 * run, in the transaction that records the events. The events share a
 * workspace and a type (what one recording writes).
 */
export async function queueDeliveries(ctx: Ctx, events: EventRow[]): Promise<void> {
  const [first] = events;
  if (!first) return;
  // With each endpoint's shared wake lock, in id order (see request-delivery.ts).
  const endpoints = await ctx.db.execute<{ id: string }>(sql`
    select e.id, pg_advisory_xact_lock_shared(${wakeLockKey(sql`e.id`)}) from (
      select id from webhook_endpoints
      where workspace_id = ${first.workspaceId} and enabled and (cardinality(event_types) = 0 or ${first.type} = any(event_types))
      order by id
    ) e`);
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
  for (let start = 0; start < wanted.length; start += 1000)
    await ctx.db.insert(webhookDeliveries).values(wanted.slice(start, start + 1000));
  await askForRuns(
    ctx,
    endpoints.map((endpoint) => endpoint.id),
  );
}
