import "server-only";

import { and, count, eq, gt, ne, sql } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { confirmationRequests, subscriptions } from "@/lib/db/schema";
import { suppressedAmong } from "@/lib/suppressions/suppressed";

import { ADDRESS_DAILY_LIMIT, DAILY_LIMIT, DAILY_WINDOW_MS, SAME_TOPIC_WINDOW_MS } from "./confirmation-windows";

export type ConfirmationDecision = { send: true } | { send: false; reason: string };

/**
 * Decides whether a requested confirmation mail goes out, and records the
 * decision: `mailedAt` reserves the slot in the windows before anything is
 * sent, so two submissions at once cannot both mail. Deciding again gives the
 * recorded answer (workflow steps may be retried).
 */
export async function decideConfirmation(ctx: Ctx, requestId: string): Promise<ConfirmationDecision> {
  return withTransaction(ctx, async (tx) => {
    const [request] = await tx.db
      .select({ request: confirmationRequests, state: subscriptions.state, topicId: subscriptions.topicId })
      .from(confirmationRequests)
      .innerJoin(subscriptions, eq(subscriptions.id, confirmationRequests.subscriptionId))
      .where(eq(confirmationRequests.id, requestId));
    if (!request) return { send: false, reason: "unknown_request" };
    const { workspaceId, email } = request.request;
    // One decision at a time per address, whatever the workspace: the cross-workspace cap counts them all.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`confirmation:${email}`}))`);
    const [fresh] = await tx.db.select().from(confirmationRequests).where(eq(confirmationRequests.id, requestId));
    if (fresh!.mailedAt) return { send: true };
    if (fresh!.skippedReason) return { send: false, reason: fresh!.skippedReason };

    const skip = async (reason: string): Promise<ConfirmationDecision> => {
      await tx.db
        .update(confirmationRequests)
        .set({ skippedReason: reason })
        .where(eq(confirmationRequests.id, requestId));
      return { send: false, reason };
    };
    if (request.state !== "pending") return skip("not_pending");
    if ((await suppressedAmong(tx, workspaceId, [email])).size > 0) return skip("suppressed");

    const now = ctx.clock.now().getTime();
    const mailedSince = (ms: number) => gt(confirmationRequests.mailedAt, new Date(now - ms));
    const inWorkspace = eq(confirmationRequests.workspaceId, workspaceId);
    // The three windows in one pass over the address's mail of the last day (the same-topic window lies within it).
    const [mailed] = await tx.db
      .select({
        sameTopic:
          sql<number>`count(*) filter (where ${and(inWorkspace, eq(subscriptions.topicId, request.topicId), mailedSince(SAME_TOPIC_WINDOW_MS))})`.mapWith(
            Number,
          ),
        inWorkspace: sql<number>`count(*) filter (where ${inWorkspace})`.mapWith(Number),
        everywhere: count(),
      })
      .from(confirmationRequests)
      .leftJoin(subscriptions, eq(subscriptions.id, confirmationRequests.subscriptionId))
      .where(
        and(
          eq(confirmationRequests.email, email),
          ne(confirmationRequests.id, requestId),
          mailedSince(DAILY_WINDOW_MS),
        ),
      );
    if (mailed!.sameTopic > 0) return skip("recently_sent");
    if (mailed!.inWorkspace >= DAILY_LIMIT) return skip("daily_limit");
    if (mailed!.everywhere >= ADDRESS_DAILY_LIMIT) return skip("address_daily_limit");

    await tx.db
      .update(confirmationRequests)
      .set({ mailedAt: ctx.clock.now() })
      .where(eq(confirmationRequests.id, requestId));
    return { send: true };
  });
}
