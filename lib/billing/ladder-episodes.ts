import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workspaceBilling, type LadderCause } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { billingLadderEnded, billingLadderStarted } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";

type Billing = typeof workspaceBilling.$inferSelect;

/**
 * Starts a walk down the ladder, unless one is under way (a second failed invoice does not restart the
 * clock). A failed payment replaces a pending cancellation's or an ended trial's walk (it comes
 * sooner) and stops sending at once in a workspace that could send; the ladder run takes every later
 * step. A start in the past (a period that ended unnoticed) starts now. Call inside the transaction
 * that records the cause, with the billing row locked.
 */
export async function startLadderEpisode(
  ctx: Ctx,
  billing: Billing,
  cause: LadderCause,
  startsAt: Date,
): Promise<string> {
  if (billing.ladderEpisodeId && !(cause === "payment_failed" && billing.ladderCause !== "payment_failed"))
    return billing.ladderEpisodeId;
  if (billing.ladderEpisodeId) await endLadderEpisode(ctx, billing);
  const episodeId = newId("bep");
  const now = ctx.clock.now();
  const stopsSendingNow = cause === "payment_failed" && (billing.stage === "active" || billing.stage === "trial");
  await ctx.db
    .update(workspaceBilling)
    .set({
      ladderEpisodeId: episodeId,
      ladderCause: cause,
      ladderStartsAt: startsAt < now ? now : startsAt,
      ladderPausedMs: 0,
      ...(stopsSendingNow ? { stage: "overdue" as const, stageEnteredAt: now } : {}),
    })
    .where(eq(workspaceBilling.workspaceId, billing.workspaceId));
  await emitEvents(ctx, [
    {
      name: billingLadderStarted.name,
      id: `ladder-${episodeId}`,
      data: { workspaceId: billing.workspaceId, episodeId },
    },
  ]);
  return episodeId;
}

/** Ends the episode under way, if any: its run is cancelled and no later step is taken. */
export async function endLadderEpisode(ctx: Ctx, billing: Billing): Promise<void> {
  if (!billing.ladderEpisodeId) return;
  await ctx.db
    .update(workspaceBilling)
    .set({ ladderEpisodeId: null, ladderCause: null, ladderStartsAt: null, ladderPausedMs: 0 })
    .where(eq(workspaceBilling.workspaceId, billing.workspaceId));
  await emitEvents(ctx, [
    {
      name: billingLadderEnded.name,
      id: `ladder-ended-${billing.ladderEpisodeId}`,
      data: { episodeId: billing.ladderEpisodeId },
    },
  ]);
}

/** The workspace's billing row, locked for the rest of the transaction. Internal: the billing verbs' lock, taken once they have checked their actor or act as the system. */
export async function lockBilling(ctx: Ctx, workspaceId: string): Promise<Billing | undefined> {
  const [billing] = await ctx.db
    .select()
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, workspaceId))
    .for("update");
  return billing;
}

/** The episode under way, if any. System: read by the end-to-end fixtures that walk a workspace down the ladder; no person's request reaches it. */
export async function getBillingEpisode(
  ctx: Ctx,
  workspaceId: string,
): Promise<Pick<Billing, "ladderEpisodeId" | "ladderCause" | "ladderStartsAt"> | undefined> {
  const [billing] = await ctx.db
    .select({
      ladderEpisodeId: workspaceBilling.ladderEpisodeId,
      ladderCause: workspaceBilling.ladderCause,
      ladderStartsAt: workspaceBilling.ladderStartsAt,
    })
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  return billing;
}
