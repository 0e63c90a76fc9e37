import "server-only";

import { and, eq } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { BILLING_STAGES, billingNotices, workspaceBilling, workspaces, type BillingStage } from "@/lib/db/schema";
import { mailOwners } from "@/lib/mail/mail-owners";
import { appUrl } from "@/lib/runtime/app-url";

import { lockBilling } from "./ladder-episodes";
import { ladderMail } from "./ladder-mail";
import { ladderElapsedMs, ladderSteps, stepDate, type LadderClock, type LadderStep } from "./ladder-schedule";
import { ladderLengths } from "./plan-defaults";

export type LadderProgress = { done: true } | { paused: true } | { deleteData: true } | { wakeAt: string };

/**
 * Takes every step of the episode that is due and not yet taken, in one transaction, and mails the
 * owners: each stage's mail, and of reminders that fell due together only the newest (after an
 * outage nobody gets a week of mail at once). A stage reached late (a trial found after its end, an
 * outage) begins now and keeps its full length: every later date moves by the delay, so no stage is
 * skipped and the deletion never comes sooner than its dated notice says. Each step is recorded with
 * its key and its mail written with a key derived from it, so a retried or restarted run repeats
 * nothing. Says what the run does next: sleep until the next step, delete the data, or stop (the
 * episode ended, or a conversation holds the clock: resuming it starts a new run).
 * System: a step of the billing-ladder workflow; no person's request reaches it.
 */
export async function advanceLadder(ctx: Ctx, workspaceId: string, episodeId: string): Promise<LadderProgress> {
  return withTransaction(ctx, async (tx) => {
    const billing = await lockBilling(tx, workspaceId);
    if (!billing || billing.ladderEpisodeId !== episodeId || !billing.ladderCause || !billing.ladderStartsAt)
      return { done: true };
    if (billing.conversationOpenSince) return { paused: true };
    const now = tx.clock.now();
    const steps = ladderSteps(billing.ladderCause, ladderLengths());
    const taken = new Set(
      (
        await tx.db
          .select({ step: billingNotices.step })
          .from(billingNotices)
          .where(eq(billingNotices.episodeId, episodeId))
      ).map((row) => row.step),
    );
    let clock = ladderClock(billing);
    const takenNow: LadderStep[] = [];
    for (const step of steps.filter((s) => !taken.has(s.step))) {
      const elapsed = ladderElapsedMs(clock, now);
      if (step.offsetMs > elapsed) break;
      takenNow.push(step);
      if (step.stage && elapsed > step.offsetMs)
        clock = { ...clock, pausedMs: clock.pausedMs + (elapsed - step.offsetMs) };
    }
    if (clock.pausedMs !== billing.ladderPausedMs)
      await tx.db
        .update(workspaceBilling)
        .set({ ladderPausedMs: clock.pausedMs })
        .where(eq(workspaceBilling.workspaceId, workspaceId));
    for (const step of takenNow) {
      // The deletion's own mail waits until the data is gone (finishDeletion).
      const mailNow = step.stage !== "deleted" && (step.stage !== null || step === takenNow.at(-1));
      await tx.db
        .insert(billingNotices)
        .values({ episodeId, step: step.step, workspaceId, takenAt: now, mailed: mailNow });
      if (step.stage && isLater(step.stage, billing.stage))
        await tx.db
          .update(workspaceBilling)
          .set({ stage: step.stage, stageEnteredAt: now })
          .where(eq(workspaceBilling.workspaceId, workspaceId));
      if (mailNow)
        await mailStep(tx, workspaceId, episodeId, billing.ladderCause, step, nextStageAt(clock, steps, step, now));
    }
    if (taken.has("deleted") || takenNow.some((step) => step.stage === "deleted"))
      return billing.dataDeletedAt ? { done: true } : { deleteData: true };
    const next = steps.find((step) => !taken.has(step.step) && !takenNow.includes(step))!;
    return { wakeAt: stepDate(clock, next, now).toISOString() };
  });
}

/** After the data is gone: the deleted workspace is an empty shell, and its owners are told. System: a step of the billing-ladder workflow; no person's request reaches it. */
export async function finishDeletion(ctx: Ctx, workspaceId: string, episodeId: string): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const billing = await lockBilling(tx, workspaceId);
    if (!billing || billing.ladderEpisodeId !== episodeId || billing.dataDeletedAt) return;
    const now = tx.clock.now();
    await tx.db
      .update(workspaceBilling)
      .set({ dataDeletedAt: now })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    await tx.db
      .update(billingNotices)
      .set({ mailed: true })
      .where(and(eq(billingNotices.episodeId, episodeId), eq(billingNotices.step, "deleted")));
    await mailStep(
      tx,
      workspaceId,
      episodeId,
      billing.ladderCause!,
      { step: "deleted", offsetMs: 0, stage: "deleted" },
      null,
    );
  });
}

// A step never moves a workspace back up the ladder: a read-only workspace without a plan stays read-only when a payment fails.
// BILLING_STAGES lists the stages in ladder order.
const isLater = (stage: BillingStage, than: BillingStage) =>
  BILLING_STAGES.indexOf(stage) > BILLING_STAGES.indexOf(than);

export function ladderClock(billing: typeof workspaceBilling.$inferSelect): LadderClock {
  return {
    startsAt: billing.ladderStartsAt!,
    pausedMs: billing.ladderPausedMs,
    pausedSince: billing.conversationOpenSince,
  };
}

/** What a step's mail dates: the next stage change after it (for the notice and reminders, the deletion). */
function nextStageAt(clock: LadderClock, steps: LadderStep[], step: LadderStep, now: Date): Date | null {
  const next = steps.find((s) => s.offsetMs > step.offsetMs && s.stage !== null);
  return next ? stepDate(clock, next, now) : null;
}

async function mailStep(
  ctx: Ctx,
  workspaceId: string,
  episodeId: string,
  cause: NonNullable<typeof workspaceBilling.$inferSelect.ladderCause>,
  step: LadderStep,
  nextAt: Date | null,
) {
  const [workspace] = await ctx.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  const mail = ladderMail(step.step, cause, workspace?.name ?? workspaceId, nextAt);
  // Required: a mail the transport refused fails the step, which is retried (the key keeps a retry from mailing twice).
  await mailOwners(ctx, workspaceId, {
    ...mail,
    link: { href: `${appUrl()}/w/${workspaceId}/billing`, label: "Open billing" },
    idempotencyKey: `billing-${episodeId}-${step.step}`,
    required: true,
  });
}
