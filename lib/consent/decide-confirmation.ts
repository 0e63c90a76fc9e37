import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { pipelinedTransaction, type RawRows } from "@/lib/db/pipelined-transaction";
import { confirmationRequests, subscriptions } from "@/lib/db/schema";
import { suppressedSql } from "@/lib/suppressions/suppressed";

import { ADDRESS_DAILY_LIMIT, DAILY_LIMIT, DAILY_WINDOW_MS, SAME_TOPIC_WINDOW_MS } from "./confirmation-windows";

export type ConfirmationDecision = { send: true } | { send: false; reason: string };

/**
 * Why a confirmation is not mailed, the first that holds, in order, of what the decision reads
 * (`f`, below): the subscription is no longer pending, the address is suppressed, this topic's
 * mail went to it within its window, or the workspace's or every workspace's daily cap is reached.
 */
const SKIP_REASONS: [reason: string, holds: SQL][] = [
  ["not_pending", sql`f.state <> 'pending'`],
  ["suppressed", sql`f.suppressed`],
  ["recently_sent", sql`f.same_topic > 0`],
  ["daily_limit", sql`f.in_workspace >= ${DAILY_LIMIT}`],
  ["address_daily_limit", sql`f.everywhere >= ${ADDRESS_DAILY_LIMIT}`],
];

/**
 * Decides whether a requested confirmation mail goes out, and records the
 * decision: `mailedAt` reserves the slot in the windows before anything is
 * sent, so two submissions at once cannot both mail. Deciding again gives the
 * recorded answer (workflow steps may be retried).
 */
export async function decideConfirmation(ctx: Ctx, requestId: string): Promise<ConfirmationDecision> {
  const [decision] = await decideConfirmationThenRead(ctx, requestId, []);
  return decision;
}

/**
 * The decision, with `reads` run after it in its transaction and their rows answered beside it: they
 * see the decision's record, and cost no round trip of their own (the sender reads its mail so).
 */
export async function decideConfirmationThenRead(
  ctx: Ctx,
  requestId: string,
  reads: SQL[],
): Promise<[ConfirmationDecision, ...RawRows[]]> {
  // One decision at a time per address, whatever the workspace: the cross-workspace cap counts them all.
  // The decision is a statement of its own after the lock's, so it sees every decision committed before
  // the lock was granted (a statement sees what was committed when it began). The transaction's
  // statements are sent together, not each after the one before has answered: a connection runs its
  // statements in order, so the decision still begins once the lock is held, and costs one round trip.
  // Every row reached by its key or the address: planned once per connection (the cached-plans pool).
  const [, decided, ...read] = await pipelinedTransaction(ctx.db, [
    sql`select pg_advisory_xact_lock(hashtext('confirmation:' || email)) from ${confirmationRequests} where id = ${requestId}`,
    decideSql(requestId, ctx.clock.now()),
    ...reads,
  ]);
  return [decisionOf(decided?.[0] as Decided | undefined), ...read];
}

function decisionOf(decided: Decided | undefined): ConfirmationDecision {
  if (!decided) return { send: false, reason: "unknown_request" };
  if (decided.mailed) return { send: true };
  if (decided.skipped_reason) return { send: false, reason: decided.skipped_reason };
  return decided.skip ? { send: false, reason: decided.skip } : { send: true };
}

interface Decided {
  /** As recorded before this decision: mailed, or skipped and why. */
  mailed: boolean;
  skipped_reason: string | null;
  /** This decision, when none was recorded: null to mail. */
  skip: string | null;
}

/**
 * The decision in one statement: what it rests on (the request, its subscription's state, the
 * suppressions and the windows), the first of SKIP_REASONS that holds, and its record on the
 * request (mailed_at now, or the reason it is skipped) unless one was made before.
 */
function decideSql(requestId: string, now: Date): SQL {
  const since = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const skip = sql`case ${sql.join(
    SKIP_REASONS.map(([reason, holds]) => sql`when ${holds} then ${reason}`),
    sql` `,
  )} end`;
  // The three windows in one pass over the address's mail of the last day (the same-topic window lies within it).
  return sql`
    with f as (
      select r.id, r.mailed_at is not null as mailed, r.skipped_reason, s.state,
        ${suppressedSql(sql`r.workspace_id`, sql`r.email`)} as suppressed,
        w.same_topic, w.in_workspace, w.everywhere
      from ${confirmationRequests} r
      join ${subscriptions} s on s.id = r.subscription_id
      cross join lateral (
        select
          (count(*) filter (where m.workspace_id = r.workspace_id and ms.topic_id = s.topic_id
            and m.mailed_at > ${since(SAME_TOPIC_WINDOW_MS)}::timestamptz))::int as same_topic,
          (count(*) filter (where m.workspace_id = r.workspace_id))::int as in_workspace,
          count(*)::int as everywhere
        from ${confirmationRequests} m
        left join ${subscriptions} ms on ms.id = m.subscription_id
        where m.email = r.email and m.id <> r.id and m.mailed_at > ${since(DAILY_WINDOW_MS)}::timestamptz
      ) w
      where r.id = ${requestId}
    ), decided as (
      select f.id, f.mailed, f.skipped_reason, case when not f.mailed and f.skipped_reason is null then ${skip} end as skip from f
    ), recorded as (
      update ${confirmationRequests} r
      set mailed_at = case when d.skip is null then ${now.toISOString()}::timestamptz end, skipped_reason = d.skip
      from decided d
      where r.id = d.id and not d.mailed and d.skipped_reason is null
    )
    select mailed, skipped_reason, skip from decided`;
}
