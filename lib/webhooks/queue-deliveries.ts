import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
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
  const endpoints = await endpointsWanting(ctx, first.workspaceId, first.type);
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

/**
 * queueDeliveries for events already written by one statement (a bulk action's chunk): `eventIds` is a
 * query of their ids (`count` of them), all of one workspace and one type. The rows are made in the
 * database, one statement whatever their number, with the order key queueDeliveries gives; only the
 * new deliveries' ids come from here (lib/ids.ts makes every id).
 */
export async function queueDeliveriesOf(
  ctx: Ctx,
  opts: { workspaceId: string; type: string; eventIds: SQL; count: number },
): Promise<void> {
  if (opts.count === 0) return;
  const endpoints = await endpointsWanting(ctx, opts.workspaceId, opts.type);
  if (endpoints.length === 0) return;
  const endpointIds = endpoints.map((endpoint) => endpoint.id);
  const ids = Array.from({ length: opts.count * endpointIds.length }, () => newId("whd"));
  const now = ctx.clock.now().toISOString();
  await ctx.db.execute(sql`
    insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, order_key, next_attempt_at, created_at)
    select d.id, ${opts.workspaceId}, w.endpoint_id, w.event_id, w.order_key, ${now}::timestamptz, ${now}::timestamptz
    from (
      select p.id as endpoint_id, ev.id as event_id,
             p.id || ':' || coalesce(ev.data->>'contact_id', ev.data->>'campaign_id', ev.id) as order_key,
             row_number() over (order by ev.id, p.id) as k
      from events ev cross join unnest(${idArray(endpointIds)}) as p(id)
      where ev.id in (${opts.eventIds})) w
    join unnest(${idArray(ids)}) with ordinality as d(id, k) on d.k = w.k`);
  await askForRuns(ctx, endpointIds);
}

/**
 * The enabled endpoints of the workspace that want events of this type, in id order, each with its
 * shared wake lock held until the transaction ends (see request-delivery.ts): what a transaction
 * that queues deliveries for such events takes first. A caller that queues them itself (an import
 * chunk, in SQL) then asks for their runs with askForRuns.
 */
export async function endpointsWanting(ctx: Ctx, workspaceId: string, type: string): Promise<{ id: string }[]> {
  return ctx.db.execute<{ id: string }>(sql`
    select e.id, pg_advisory_xact_lock_shared(${wakeLockKey(sql`e.id`)}) from (
      select id from webhook_endpoints
      where workspace_id = ${workspaceId} and enabled and (cardinality(event_types) = 0 or ${type} = any(event_types))
      order by id
    ) e`);
}
