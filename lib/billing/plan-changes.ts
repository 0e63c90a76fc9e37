import "server-only";

import { eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { billingLadderStarted } from "@/lib/events/workflow-events";

import { assertManagesBilling } from "./billing-managers";
import { lockBilling, startLadderEpisode } from "./ladder-episodes";

/**
 * Cancelling takes effect at the end of the paid period: until then the workspace stays active, then
 * the ladder walks it from read-only. Choosing a plan again before that withdraws the cancellation.
 * `endsAt` overrides the end (Stripe says when the subscription ended).
 */
export async function cancelPlan(
  ctx: Ctx,
  actor: WorkspaceActor,
  endsAt?: Date,
): Promise<typeof workspaceBilling.$inferSelect> {
  const workspaceId = actor.workspaceId;
  return withTransaction(ctx, async (tx) => {
    await assertManagesBilling(tx, actor);
    const billing = await lockBilling(tx, workspaceId);
    if (!billing) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`, "workspace");
    if (!billing.plan)
      throw new ApiError({
        type: "invalid_request_error",
        code: "no_plan",
        param: "workspace",
        message: "The workspace has no plan to cancel.",
      });
    const end = endsAt ?? billing.paidThrough ?? tx.clock.now();
    await tx.db
      .update(workspaceBilling)
      .set({ cancelAtPeriodEnd: true })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    await startLadderEpisode(tx, { ...billing, cancelAtPeriodEnd: true }, "cancelled", end);
    return (await lockBilling(tx, workspaceId))!;
  });
}

/** A conversation with the service's team holds the ladder: no stage comes while it is open. System: the operator's billing page and the admin CLI; no workspace member reaches it. */
export async function pauseLadderClock(ctx: Ctx, workspaceId: string): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const billing = await lockBilling(tx, workspaceId);
    if (!billing) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`, "workspace");
    if (billing.conversationOpenSince) return;
    await tx.db
      .update(workspaceBilling)
      .set({ conversationOpenSince: tx.clock.now() })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
  });
}

/** The conversation ended: every later stage falls later by the time it was open (within the episode). System: the operator's billing page and the admin CLI; no workspace member reaches it. */
export async function resumeLadderClock(ctx: Ctx, workspaceId: string): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const billing = await lockBilling(tx, workspaceId);
    if (!billing) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`, "workspace");
    if (!billing.conversationOpenSince) return;
    const now = tx.clock.now().getTime();
    const from = Math.max(billing.conversationOpenSince.getTime(), billing.ladderStartsAt?.getTime() ?? now);
    await tx.db
      .update(workspaceBilling)
      .set({
        conversationOpenSince: null,
        ladderPausedMs: billing.ladderPausedMs + (billing.ladderEpisodeId ? Math.max(0, now - from) : 0),
      })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    // The episode's run stopped when it found the clock paused: a new one carries it on.
    if (billing.ladderEpisodeId) {
      await emitEvents(tx, [
        {
          name: billingLadderStarted.name,
          id: `ladder-${billing.ladderEpisodeId}-resumed-${now}`,
          data: { workspaceId, episodeId: billing.ladderEpisodeId },
        },
      ]);
    }
  });
}
