import "server-only";

import { and, eq, sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workflowRuns, type RunEvent } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { batchable, enqueueEventBatch } from "./enqueue-batch";
import type { RegisteredFunction } from "./registry";
import { resumeWaitingRuns, resumeWaitingRunsSql } from "./resume-waiting-runs";

export interface OutgoingEvent {
  readonly name: string;
  readonly data?: unknown;
  /** Sending the same id again starts nothing new (Inngest's event de-duplication). */
  readonly id?: string;
  readonly ts?: number;
}

/**
 * Turns events into runs of the functions they trigger, in the caller's
 * transaction when there is one: a state change and the workflow it starts
 * are committed together or not at all. Also cancels pending runs that an
 * event cancels (`cancelOn`), and resumes the runs waiting for it (waitForEvent).
 */
export async function enqueueEvents(
  ctx: Ctx,
  registry: RegisteredFunction[],
  events: readonly OutgoingEvent[],
): Promise<string[]> {
  const now = ctx.clock.now();
  // Many events of one name (a bulk trigger's entries): a statement per function, not per event.
  if (batchable(registry, events))
    return enqueueEventBatch(ctx, registry, events, (outgoing) =>
      resumeWaitingRuns(ctx, runEvent(outgoing, now), now).then(() => undefined),
    );
  const ids: string[] = [];
  for (const outgoing of events) {
    const event = runEvent(outgoing, now);
    ids.push(event.id);
    for (const registered of registry) {
      for (const cancel of registered.cancelOn.filter((c) => c.event === event.name)) {
        await ctx.db
          .update(workflowRuns)
          .set({ status: "cancelled", updatedAt: now })
          .where(
            and(
              eq(workflowRuns.functionId, registered.slug),
              eq(workflowRuns.status, "pending"),
              sql`${workflowRuns.event}->'data'->${cancel.key} = ${JSON.stringify(event.data[cancel.key] ?? null)}::jsonb`,
            ),
          );
      }
    }
    // The runs it starts and the waits it resumes in one statement, after the cancellations (a run this
    // event cancels is not resumed by it).
    const { starts, resume } = eventStatements(registry, outgoing, event, now, sql`true`);
    await ctx.db.execute(
      starts.length === 0
        ? resume
        : sql`with ${sql.join(
            starts.map((start, i) => sql`${sql.raw(`started_${i}`)} as (${start})`),
            sql`, `,
          )} ${resume}`,
    );
  }
  return ids;
}

/**
 * enqueueEvents as common table expressions of a caller's statement (`, name as (…)` each), the runs
 * started and the waits resumed only if `when` holds: the caller's change and its workflows in one
 * statement, atomic without a transaction. Null for events that cancel runs, which enqueueEvents
 * cancels first, in statements of their own.
 */
export function enqueueEventsWithin(
  ctx: Ctx,
  registry: RegisteredFunction[],
  events: readonly OutgoingEvent[],
  when: SQL,
): SQL | null {
  if (events.some((e) => registry.some((r) => r.cancelOn.some((c) => c.event === e.name)))) return null;
  const now = ctx.clock.now();
  const parts = events.flatMap((outgoing, e) => {
    const { starts, resume } = eventStatements(registry, outgoing, runEvent(outgoing, now), now, when);
    return [
      ...starts.map((start, i) => sql`, ${sql.raw(`workflow_start_${e}_${i}`)} as (${start})`),
      sql`, ${sql.raw(`workflow_resume_${e}`)} as (${resume})`,
    ];
  });
  return sql.join(parts, sql` `);
}

function runEvent(outgoing: OutgoingEvent, now: Date): RunEvent {
  return {
    id: outgoing.id ?? newId("ev"),
    name: outgoing.name,
    data: (outgoing.data ?? {}) as Record<string, unknown>,
    ts: outgoing.ts ?? now.getTime(),
  };
}

/**
 * One event's statements: a run of each function it triggers, and the resumption of the runs waiting for
 * it. A run just started waits for nothing, so neither concerns the other's rows: they can go as one
 * statement.
 */
function eventStatements(
  registry: RegisteredFunction[],
  outgoing: OutgoingEvent,
  event: RunEvent,
  now: Date,
  when: SQL,
): { starts: SQL[]; resume: SQL } {
  // As with Inngest, an event stamped in the future starts its runs then.
  const startAt = event.ts > now.getTime() ? new Date(event.ts) : now;
  const starts: SQL[] = [];
  for (const registered of registry) {
    if (!registered.events.includes(event.name)) continue;
    const concurrencyKey =
      registered.concurrencyKey === null
        ? null
        : `${registered.slug}:${String(event.data[registered.concurrencyKey] ?? "")}`;
    // The run's values in one parameter, as enqueue-batch.ts writes many: the statement it joins stays
    // within the parameters of a prepared statement (lib/db/client.ts).
    const run = JSON.stringify({
      id: newId("run"),
      function_id: registered.slug,
      event,
      wake_at: startAt.toISOString(),
      concurrency_key: concurrencyKey,
      at: now.toISOString(),
    });
    // Many transactions may send one id (one run serving them all): once a run for it is committed, skip
    // it without waiting; only a conflict with an uncommitted one waits for that transaction to end.
    const once =
      outgoing.id === undefined
        ? sql``
        : sql`and not exists (select 1 from workflow_runs w where w.function_id = r.function_id and (w.event->>'id') = r.event->>'id')
          on conflict do nothing`;
    starts.push(sql`
      insert into workflow_runs (id, function_id, event, wake_at, concurrency_key, created_at, updated_at)
      select r.id, r.function_id, r.event, r.wake_at, r.concurrency_key, r.at, r.at
      from jsonb_to_record(${run}::jsonb) as r(id text, function_id text, event jsonb, wake_at timestamptz, concurrency_key text, at timestamptz)
      where ${when} ${once}`);
  }
  return { starts, resume: resumeWaitingRunsSql(event, now, when) };
}
