import "server-only";

import { and, eq, sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workflowRuns, type RunEvent } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { batchable, enqueueEventBatch } from "./enqueue-batch";
import type { RegisteredFunction } from "./registry";
import { resumeWaitingRuns } from "./resume-waiting-runs";

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
  const runEvent = (outgoing: OutgoingEvent): RunEvent => ({
    id: outgoing.id ?? newId("ev"),
    name: outgoing.name,
    data: (outgoing.data ?? {}) as Record<string, unknown>,
    ts: outgoing.ts ?? now.getTime(),
  });
  // Many events of one name (a bulk trigger's entries): a statement per function, not per event.
  if (batchable(registry, events))
    return enqueueEventBatch(ctx, registry, events, (outgoing) =>
      resumeWaitingRuns(ctx, runEvent(outgoing), now).then(() => undefined),
    );
  const ids: string[] = [];
  for (const outgoing of events) {
    const event = runEvent(outgoing);
    ids.push(event.id);
    // As with Inngest, an event stamped in the future starts its runs then.
    const startAt = event.ts > now.getTime() ? new Date(event.ts) : now;
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
      if (!registered.events.includes(event.name)) continue;
      const concurrencyKey =
        registered.concurrencyKey === null
          ? null
          : `${registered.slug}:${String(event.data[registered.concurrencyKey] ?? "")}`;
      const run = {
        id: newId("run"),
        functionId: registered.slug,
        event,
        wakeAt: startAt,
        concurrencyKey,
        createdAt: now,
        updatedAt: now,
      };
      if (outgoing.id === undefined) {
        await ctx.db.insert(workflowRuns).values(run);
        continue;
      }
      // Many transactions may send one id (one run serving them all): once a run for it is committed, skip
      // it without waiting; only a conflict with an uncommitted one waits for that transaction to end.
      await ctx.db.execute(sql`
        insert into workflow_runs (id, function_id, event, wake_at, concurrency_key, created_at, updated_at)
        select ${run.id}, ${run.functionId}, ${JSON.stringify(event)}::jsonb, ${startAt.toISOString()}::timestamptz, ${concurrencyKey},
          ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        where not exists (select 1 from workflow_runs where function_id = ${run.functionId} and (event->>'id') = ${event.id})
        on conflict do nothing`);
    }
    // After the cancellations: a run this event cancels is not resumed by it.
    await resumeWaitingRuns(ctx, event, now);
  }
  return ids;
}
