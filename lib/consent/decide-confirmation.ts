import "server-only";

import { eq, sql } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { cachedPlansDb } from "@/lib/db/client";
import { confirmationRequests, subscriptions, type SubscriptionState } from "@/lib/db/schema";
import { suppressedSql } from "@/lib/suppressions/suppressed";

import { ADDRESS_DAILY_LIMIT, DAILY_LIMIT, DAILY_WINDOW_MS, SAME_TOPIC_WINDOW_MS } from "./confirmation-windows";

export type ConfirmationDecision = { send: true } | { send: false; reason: string };

/**
 * Decides whether a requested confirmation mail goes out, and records the
 * decision: `mailedAt` reserves the slot in the windows before anything is
 * sent, so two submissions at once cannot both mail. Deciding again gives the
 * recorded answer (workflow steps may be retried).
 */
export async function decideConfirmation(ctx: Ctx, requestId: string): Promise<ConfirmationDecision> {
  // Every row reached by its key or the address: planned once per connection (cachedPlansDb).
  return withTransaction({ ...ctx, db: cachedPlansDb(ctx.db) }, async (tx) => {
    // One decision at a time per address, whatever the workspace: the cross-workspace cap counts them all.
    // Everything decided on is read after the lock, by a statement of its own, so it sees every decision
    // committed before the lock was granted (a statement sees what was committed when it began).
    const [request] = (await tx.db.execute(sql`
      select workspace_id, email, pg_advisory_xact_lock(hashtext('confirmation:' || email))
      from ${confirmationRequests} where id = ${requestId}`)) as unknown as { workspace_id: string; email: string }[];
    if (!request) return { send: false, reason: "unknown_request" };
    const facts = await readFacts(tx, requestId, request.workspace_id, request.email);
    if (!facts) return { send: false, reason: "unknown_request" };
    if (facts.mailed) return { send: true };
    if (facts.skipped_reason) return { send: false, reason: facts.skipped_reason };

    const skip = async (reason: string): Promise<ConfirmationDecision> => {
      await tx.db
        .update(confirmationRequests)
        .set({ skippedReason: reason })
        .where(eq(confirmationRequests.id, requestId));
      return { send: false, reason };
    };
    if (facts.state !== "pending") return skip("not_pending");
    if (facts.suppressed) return skip("suppressed");
    if (facts.same_topic > 0) return skip("recently_sent");
    if (facts.in_workspace >= DAILY_LIMIT) return skip("daily_limit");
    if (facts.everywhere >= ADDRESS_DAILY_LIMIT) return skip("address_daily_limit");

    await tx.db
      .update(confirmationRequests)
      .set({ mailedAt: ctx.clock.now() })
      .where(eq(confirmationRequests.id, requestId));
    return { send: true };
  });
}

interface Facts {
  mailed: boolean;
  skipped_reason: string | null;
  state: SubscriptionState;
  suppressed: boolean;
  /** The address's other confirmation mails: to this topic within its window, in this workspace and anywhere within the day's. */
  same_topic: number;
  in_workspace: number;
  everywhere: number;
}

/** What the decision rests on, in one statement: the request, its subscription's state, the suppressions and the windows. */
async function readFacts(ctx: Ctx, requestId: string, workspaceId: string, email: string): Promise<Facts | null> {
  const now = ctx.clock.now().getTime();
  const since = (ms: number) => new Date(now - ms).toISOString();
  // The three windows in one pass over the address's mail of the last day (the same-topic window lies within it).
  const [facts] = (await ctx.db.execute(sql`
    select r.mailed_at is not null as mailed, r.skipped_reason, s.state,
      ${suppressedSql(workspaceId, sql`r.email`)} as suppressed,
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
      where m.email = ${email} and m.id <> r.id and m.mailed_at > ${since(DAILY_WINDOW_MS)}::timestamptz
    ) w
    where r.id = ${requestId}`)) as unknown as Facts[];
  return facts ?? null;
}
