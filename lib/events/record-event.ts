import "server-only";

import { sql } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { newId } from "@/lib/ids";
import { queueDeliveries } from "@/lib/webhooks/queue-deliveries";

import type { EventType } from "./event-types";

/**
 * Writes an event to the outbox with a delivery for each endpoint that wants
 * it, in the caller's transaction so they exist exactly when the change does.
 * It belongs to the actor's workspace. Test-key actions record nothing: no
 * webhook ever fires for them. Returns the event's id, or null when nothing was recorded.
 */
export async function recordEvent(
  ctx: Ctx,
  actor: Actor,
  type: EventType,
  data: Record<string, unknown>,
  occurredAt: Date,
  /** Set for an open or click a machine made (events.machine); never part of the payload. */
  machine: string | null = null,
): Promise<string | null> {
  const [id] = await recordEvents(ctx, actor, type, [{ data, occurredAt, machine }]);
  return id ?? null;
}

/** Many events of one type at once (an import's subscriptions), as `recordEvent` writes one; their ids, in order. */
export async function recordEvents(
  ctx: Ctx,
  actor: Actor,
  type: EventType,
  items: { data: Record<string, unknown>; occurredAt: Date; machine?: string | null }[],
): Promise<string[]> {
  const workspaceId = requireActorWorkspace(actor);
  if (actor.mode === "test" || items.length === 0) return [];
  return withTransaction(ctx, async (tx) => {
    const createdAt = tx.clock.now();
    const rows = items.map((item) => ({
      id: newId("evt"),
      workspaceId,
      type,
      data: item.data,
      occurredAt: item.occurredAt,
      machine: item.machine ?? null,
      createdAt,
    }));
    // One statement whatever the count: an import records thousands of events per chunk.
    await tx.db.execute(sql`
      insert into events (id, workspace_id, type, data, occurred_at, machine, created_at)
      select x.id, ${workspaceId}, ${type}, x.data, x."occurredAt", x.machine, ${createdAt.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, data: r.data, occurredAt: r.occurredAt, machine: r.machine })))}::jsonb)
        as x(id text, data jsonb, "occurredAt" timestamptz, machine text)`);
    await queueDeliveries(tx, rows);
    return rows.map((row) => row.id);
  });
}
