import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { newId } from "@/lib/ids";

import type { OutgoingEvent } from "./enqueue";
import type { RegisteredFunction } from "./registry";

/**
 * Whether `enqueueEventBatch` may take these events: many of one name, each with an id and no
 * future time, that cancel no run. A bulk trigger (a list add of 100,000 entering an automation)
 * emits exactly that; anything else goes event by event.
 */
export function batchable(registry: RegisteredFunction[], events: readonly OutgoingEvent[]): boolean {
  if (events.length < 2) return false;
  const name = events[0]!.name;
  if (registry.some((r) => r.cancelOn.some((c) => c.event === name))) return false;
  return events.every((e) => e.name === name && e.id !== undefined && e.ts === undefined);
}

/**
 * The same runs enqueueEvents makes one event at a time, for a batch of one name (`batchable`), in a
 * statement per function: each run inserted unless a run of that function already serves its event id.
 * Runs waiting for this event name are resumed event by event, as enqueueEvents does, but only when
 * one exists (one look-up for the batch): nothing waits for an automation's entry.
 */
export async function enqueueEventBatch(
  ctx: Ctx,
  registry: RegisteredFunction[],
  events: readonly OutgoingEvent[],
  resume: (event: OutgoingEvent) => Promise<void>,
): Promise<string[]> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const name = events[0]!.name;
  // One run per id, as event by event: the statement below does not see its own rows.
  const unique = [...new Map(events.map((e) => [e.id!, e])).values()];
  const runEvents = unique.map((e) => ({ id: e.id!, name, data: e.data ?? {}, ts: now.getTime() }));
  for (const registered of registry) {
    if (!registered.events.includes(name)) continue;
    const rows = runEvents.map((event) => ({
      id: newId("run"),
      event,
      concurrency_key:
        registered.concurrencyKey === null
          ? null
          : `${registered.slug}:${String((event.data as Record<string, unknown>)[registered.concurrencyKey] ?? "")}`,
    }));
    await ctx.db.execute(sql`
      insert into workflow_runs (id, function_id, event, wake_at, concurrency_key, created_at, updated_at)
      select r.id, ${registered.slug}, r.event, ${at}::timestamptz, r.concurrency_key, ${at}::timestamptz, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, event jsonb, concurrency_key text)
      where not exists (select 1 from workflow_runs w where w.function_id = ${registered.slug} and (w.event->>'id') = r.event->>'id')
      on conflict do nothing`);
  }
  const [waiting] = (await ctx.db.execute(
    sql`select exists (select 1 from workflow_runs where status = 'pending' and wait_event = ${name}) as any`,
  )) as unknown as { any: boolean }[];
  if (waiting?.any) for (const event of events) await resume(event);
  return runEvents.map((e) => e.id);
}
