/** Waits after each failed attempt: nine attempts in about two days. */
export const RETRY_DELAYS_MS = [
  30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;

/** The wait after failed attempt `attempt` (1-based), with up to 10 % jitter; null when it was the last. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + random() * 0.1));
}
