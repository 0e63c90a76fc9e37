import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { countersDb } from "@/lib/db/client";
import { workflowRuns } from "@/lib/db/schema";

/** A run's row, as an executor claimed it and keeps it while the run is in hand. */
export type Run = typeof workflowRuns.$inferSelect;

/** The columns of a wait for an event, cleared when the wait ends (by its event or its timeout). */
export const NOT_WAITING = { waitStep: null, waitEvent: null, waitKey: null, waitMatch: null } as const;

/**
 * An executor's claims: which due runs it takes, and the concurrency keys of the runs it has in
 * hand until it lets them go.
 */
export function createRunClaims(leaseMs: number) {
  /** Concurrency keys of the runs this executor is working on; claims are made one at a time. */
  const keysInHand = new Set<string>();
  let claiming: Promise<unknown> = Promise.resolve();

  /**
   * Claims up to `limit` due runs in one statement. Skips rows another
   * executor holds, and runs whose concurrency key is taken: by a run in this
   * executor's hands or by a leased run elsewhere. Of due runs sharing a key
   * only the oldest is taken, and claims are serialised within the executor,
   * so same-key runs go one at a time, oldest first.
   */
  function claim(ctx: Ctx, limit: number): Promise<Run[]> {
    const claimed = claiming.then(() => claimBatch(ctx, limit));
    claiming = claimed.catch(() => undefined);
    return claimed;
  }

  async function claimBatch(ctx: Ctx, limit: number): Promise<Run[]> {
    const now = ctx.clock.now().toISOString();
    const leaseUntil = new Date(ctx.clock.now().getTime() + leaseMs);
    const notInHand = keysInHand.size
      ? sql`r.concurrency_key not in (${sql.join(
          [...keysInHand].map((key) => sql`${key}`),
          sql`, `,
        )})`
      : sql`true`;
    // "offset 0" keeps the not-exists a probe of workflow_runs_concurrency_idx per keyed candidate: without
    // it the planner may hash it instead, a scan of every pending run (every sleeping one) at each claim.
    // "= any(array(…))": the claimed ids are picked first, then each row is reached by its key. As "in (…)" the
    // planner may walk every run and probe the picks for each, as it did under a plan made while the table was
    // nearly empty (2,268 runs walked per claim, 2.5–5 ms).
    // Raw SQL with aliases: in a one-table statement Drizzle renders columns bare, which would bind to the inner tables.
    // A lease lost to a database crash only makes the run claimable again: no need to wait for the disk,
    // so the claim, one statement, goes through the counters' pool and needs no transaction of its own.
    const claimed = await countersDb(ctx.db)
      .update(workflowRuns)
      .set({
        leaseUntil,
        // A run still waiting for an event when it comes due has timed out: the claim resolves its wait
        // with null in the same statement, so an event arriving from now on finds no wait to resume,
        // and one whose statement holds the row is skipped (skip locked) and wins instead.
        steps: sql`case when "workflow_runs"."wait_step" is null then "workflow_runs"."steps"
          else "workflow_runs"."steps" || jsonb_build_object("workflow_runs"."wait_step", '{"type":"data","data":null}'::jsonb) end`,
        stepOrder: sql`case when "workflow_runs"."wait_step" is null then "workflow_runs"."step_order"
          else "workflow_runs"."step_order" || jsonb_build_array("workflow_runs"."wait_step") end`,
        attempt: sql`case when "workflow_runs"."wait_step" is null then "workflow_runs"."attempt" else 0 end`,
        ...NOT_WAITING,
      })
      .where(
        sql`"workflow_runs"."id" = any(array(
          select id from (
            select distinct on (coalesce(c.concurrency_key, c.id)) c.id, c.wake_at from (
              select r.id, r.concurrency_key, r.wake_at from workflow_runs r
              where r.status = 'pending' and r.wake_at <= ${now}::timestamptz
                and (r.lease_until is null or r.lease_until < ${now}::timestamptz)
                and (r.concurrency_key is null or (${notInHand} and not exists (
                  select 1 from workflow_runs held
                  where held.concurrency_key = r.concurrency_key and held.status = 'pending' and held.lease_until >= ${now}::timestamptz
                  offset 0)))
              order by r.wake_at, r.id
              limit ${limit * 4 + 16}
              for update skip locked
            ) c
            order by coalesce(c.concurrency_key, c.id), c.wake_at, c.id
          ) firsts
          order by wake_at, id
          limit ${limit}))`,
      )
      .returning();
    for (const run of claimed) if (run.concurrencyKey) keysInHand.add(run.concurrencyKey);
    return claimed.sort((a, b) => a.wakeAt.getTime() - b.wakeAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  /** A run is out of hand (ended, waiting or abandoned): its key may be claimed again. */
  function letGo(run: Run): void {
    if (run.concurrencyKey) keysInHand.delete(run.concurrencyKey);
  }

  return { claim, letGo };
}
