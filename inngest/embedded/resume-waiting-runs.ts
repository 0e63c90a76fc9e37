import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import type { RunEvent } from "@/lib/db/schema";

import { matchKeysOf } from "./wait-match";

/**
 * Resumes the runs waiting for this event (step.waitForEvent), in the caller's transaction: each
 * one's wait is memoised as resolved with the event and the run is due now, for the next claim.
 *
 * Found through the index on (wait_event, wait_key): the waits on this event name whose one indexed
 * condition the event meets, or that have none; their other conditions are checked by containment.
 * No run is read that does not wait for this name and one of these values.
 *
 * Race-safe by the row: a wait is resumed only while its columns are set, re-checked on the row's
 * latest version when another statement changed it first. So of an event and a timeout (the claim
 * clears the wait), or of two events, exactly one resolves a wait; a wait is set only by the save that
 * releases the run's lease, so a waiting run is never in an executor's hands, and a resumed one is
 * taken by one executor's claim. An event whose statement ran before the wait was saved does not
 * see it, as with Inngest, where a wait sees only events received after it began.
 */
export async function resumeWaitingRuns(ctx: Ctx, event: RunEvent, now: Date): Promise<number> {
  return (await ctx.db.execute(resumeWaitingRunsSql(event, now))).count;
}

/** resumeWaitingRuns as a statement, for enqueueEvents to send with the runs an event starts; only if `when` holds. */
export function resumeWaitingRunsSql(event: RunEvent, now: Date, when: SQL = sql`true`): SQL {
  const eventJson = JSON.stringify(event);
  return sql`
    update workflow_runs set
      steps = steps || jsonb_build_object(wait_step, jsonb_build_object('type', 'data', 'data', ${eventJson}::jsonb)),
      step_order = step_order || jsonb_build_array(wait_step),
      attempt = 0,
      wait_step = null, wait_event = null, wait_key = null, wait_match = null,
      wake_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
    where status = 'pending' and wait_step is not null and wait_event = ${event.name}
      and (wait_key is null or wait_key = any(array(select jsonb_array_elements_text(${JSON.stringify(matchKeysOf(event))}::jsonb))))
      and ${eventJson}::jsonb @> wait_match and ${when}`;
}
