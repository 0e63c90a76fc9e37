import "server-only";
import { eq } from "drizzle-orm";
import { withTransaction, type Ctx } from "@/lib/context";
import { billingNotices, workspaceBilling, workspaces } from "@/lib/db/schema";
import { mailOwners } from "@/lib/mail/mail-owners";
import { appUrl } from "@/lib/runtime/app-url";
import { lockBilling } from "./ladder-episodes";
import { ladderElapsedMs, ladderSteps, stepDate, type LadderClock, type LadderStep } from "./ladder-schedule";
import { ladderMail } from "./ladder-mail";
import { ladderLengths } from "./plan-defaults";

/** While the clock is paused the run looks again this often: resuming moves every date later, never earlier. */
const PAUSED_RECHECK_MS = 60 * 60_000;

export type LadderProgress = { done: true } | { deleteData: true } | { wakeAt: string };

/**
 * Takes every step of the episode that is due and not yet taken, in one transaction: moves the
 * workspace to the newest stage and mails the owners about the newest step only (after an outage
 * nobody gets a week of mail at once). Each step is recorded with its key, and its mail written with
 * a key derived from it, so a retried or restarted run repeats nothing. Says what the run does next:
 * sleep until the next step, delete the data (the `deleted` step), or stop (the episode ended).
 */
export async function advanceLadder(ctx: Ctx, workspaceId: string, episodeId: string): Promise<LadderProgress> {
  return withTransaction(ctx, async (tx) => {
    const billing = await lockBilling(tx, workspaceId);
    if (!billing || billing.ladderEpisodeId !== episodeId || !billing.ladderCause || !billing.ladderStartsAt) return { done: true };
    const now = tx.clock.now();
    const clock = ladderClock(billing);
    const steps = ladderSteps(billing.ladderCause, ladderLengths());
    const elapsed = ladderElapsedMs(clock, now);
    const due = steps.filter((step) => step.offsetMs <= elapsed);
    const taken = new Set((await tx.db.select({ step: billingNotices.step }).from(billingNotices).where(eq(billingNotices.episodeId, episodeId))).map((row) => row.step));
    const newest = due.at(-1);
    for (const step of due.filter((s) => !taken.has(s.step))) {
      // The deletion's own mail waits until the data is gone (finishDeletion).
      const mailNow = step === newest && step.stage !== "deleted";
      await tx.db.insert(billingNotices).values({ episodeId, step: step.step, workspaceId, takenAt: now, mailed: mailNow });
      if (step.stage && step.stage !== billing.stage) await tx.db.update(workspaceBilling).set({ stage: step.stage, stageEnteredAt: now }).where(eq(workspaceBilling.workspaceId, workspaceId));
      if (mailNow) await mailStep(tx, workspaceId, episodeId, billing.ladderCause, step, nextStageAt(clock, steps, step, now));
    }
    if (newest?.stage === "deleted") return billing.dataDeletedAt ? { done: true } : { deleteData: true };
    const next = steps.find((step) => step.offsetMs > elapsed)!;
    const wakeAt = clock.pausedSince ? new Date(now.getTime() + PAUSED_RECHECK_MS) : stepDate(clock, next, now);
    return { wakeAt: wakeAt.toISOString() };
  });
}

/** After the data is gone: the deleted workspace is an empty shell, and its owners are told. */
export async function finishDeletion(ctx: Ctx, workspaceId: string, episodeId: string): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const billing = await lockBilling(tx, workspaceId);
    if (!billing || billing.ladderEpisodeId !== episodeId || billing.dataDeletedAt) return;
    const now = tx.clock.now();
    await tx.db.update(workspaceBilling).set({ dataDeletedAt: now }).where(eq(workspaceBilling.workspaceId, workspaceId));
    await tx.db.update(billingNotices).set({ mailed: true }).where(eq(billingNotices.episodeId, episodeId));
    await mailStep(tx, workspaceId, episodeId, billing.ladderCause!, { step: "deleted", offsetMs: 0, stage: "deleted" }, null);
  });
}

export function ladderClock(billing: typeof workspaceBilling.$inferSelect): LadderClock {
  return { startsAt: billing.ladderStartsAt!, pausedMs: billing.ladderPausedMs, pausedSince: billing.conversationOpenSince };
}

/** What a step's mail dates: the next stage change after it (for the notice and reminders, the deletion). */
function nextStageAt(clock: LadderClock, steps: LadderStep[], step: LadderStep, now: Date): Date | null {
  const next = steps.find((s) => s.offsetMs > step.offsetMs && s.stage !== null);
  return next ? stepDate(clock, next, now) : null;
}

async function mailStep(ctx: Ctx, workspaceId: string, episodeId: string, cause: NonNullable<typeof workspaceBilling.$inferSelect.ladderCause>, step: LadderStep, nextAt: Date | null) {
  const [workspace] = await ctx.db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId));
  const mail = ladderMail(step.step, cause, workspace?.name ?? workspaceId, nextAt);
  await mailOwners(ctx, workspaceId, { ...mail, link: { href: `${appUrl()}/w/${workspaceId}/billing`, label: "Open billing" }, idempotencyKey: `billing-${episodeId}-${step.step}` });
}
