import type { BillingStage, LadderCause } from "@/lib/db/schema";

import { DAY_MS, type LadderLengths } from "./plan-defaults";

/** One step of a walk down the ladder: at `offsetMs` of ladder time, move to `stage` (if any) and mail the owners. */
export interface LadderStep {
  step: string;
  offsetMs: number;
  stage: BillingStage | null;
}

/**
 * The steps of an episode, in order. A failed payment starts at `overdue`; a cancelled plan and an
 * ended trial start at `read_only` (nothing is owed, so there is nothing to collect). Deletion is
 * scheduled with a dated notice, then reminded weekly, then done.
 */
export function ladderSteps(cause: LadderCause, lengths: LadderLengths): LadderStep[] {
  const steps: LadderStep[] = [];
  let at = 0;
  if (cause === "payment_failed") {
    steps.push({ step: "overdue", offsetMs: 0, stage: "overdue" });
    at += lengths.overdueDays * DAY_MS;
  }
  steps.push({ step: "read_only", offsetMs: at, stage: "read_only" });
  at += lengths.readOnlyDays * DAY_MS;
  steps.push({ step: "deletion_scheduled", offsetMs: at, stage: "deletion_scheduled" });
  const deletionAt = at + lengths.deletionNoticeDays * DAY_MS;
  for (
    let n = 1, reminder = at + lengths.reminderEveryDays * DAY_MS;
    reminder < deletionAt;
    n++, reminder += lengths.reminderEveryDays * DAY_MS
  ) {
    steps.push({ step: `reminder_${n}`, offsetMs: reminder, stage: null });
  }
  steps.push({ step: "deleted", offsetMs: deletionAt, stage: "deleted" });
  return steps;
}

export interface LadderClock {
  startsAt: Date;
  /** Paused time already behind the episode. */
  pausedMs: number;
  /** Set while a conversation with the service's team holds the clock. */
  pausedSince: Date | null;
}

/** How far the episode has walked at `now`: wall time since its start, less every paused stretch. */
export function ladderElapsedMs(clock: LadderClock, now: Date): number {
  // A conversation opened before the episode began holds the clock only from the episode's start.
  const pausedFrom = clock.pausedSince
    ? Math.max(clock.pausedSince.getTime(), clock.startsAt.getTime())
    : now.getTime();
  const pausedNow = Math.max(0, now.getTime() - pausedFrom);
  return now.getTime() - clock.startsAt.getTime() - clock.pausedMs - pausedNow;
}

/** When a step falls on the wall clock, were the clock to run from now on. */
export function stepDate(clock: LadderClock, step: LadderStep, now: Date): Date {
  return new Date(now.getTime() + step.offsetMs - ladderElapsedMs(clock, now));
}
