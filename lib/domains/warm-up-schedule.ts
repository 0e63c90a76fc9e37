// No I/O and no server-only: the domain page and the CLI show the same schedule dispatch applies.

/**
 * The default warm-up schedule: how many sends a domain's campaigns may claim in one UTC day, stage by
 * stage; null is no cap (warm-up done). docs/readings.md, "Warm-up of a sending domain".
 */
export const WARM_UP_SCHEDULE: readonly (number | null)[] = [50, 100, 500, 1_000, 5_000, 10_000, 20_000, 40_000, null];

export const LAST_WARM_UP_STAGE = WARM_UP_SCHEDULE.length - 1;

/** The day's cap at a stage; null when unlimited. */
export function warmUpCapOf(stage: number): number | null {
  return WARM_UP_SCHEDULE[Math.min(Math.max(stage, 0), LAST_WARM_UP_STAGE)] ?? null;
}

/** What a finished day tells the next one: whether it sent at all, and whether it held the deliverability rates. */
export interface WarmUpDayOutcome {
  stage: number;
  used: number;
  heldRates: boolean;
}

/**
 * The stage of a domain's next sending day, from its last day that had a row: one step up after a day
 * that sent and held the rates, the same stage after a day that broke them (the guardrails of the rates
 * stop campaigns; the cap does not shrink under a sender mid-campaign), the first stage before any.
 * Days that sent nothing have no say: a quiet week neither advances nor resets the schedule.
 */
export function nextWarmUpStage(last: WarmUpDayOutcome | null): number {
  if (!last) return 0;
  if (last.used > 0 && last.heldRates) return Math.min(last.stage + 1, LAST_WARM_UP_STAGE);
  return last.stage;
}

/** The UTC day an instant falls in, as the warm-up counts days: "2026-11-28". */
export function warmUpDayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** When the next warm-up day starts: the next midnight UTC, when a capped campaign goes on. */
export function nextWarmUpDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
