import "server-only";

const MAX_BACKOFF_MS = 10 * 60_000;

/** 1 s, 2 s, 4 s … up to 10 min, with up to 10 % jitter. */
export function retryDelayMs(attempt: number): number {
  const base = Math.min(1000 * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base * (1 + Math.random() * 0.1));
}

/** A step's own retry-after (RetryAfterError): seconds, or a date to wait for. */
export function retryAfterMs(value: string, now: number): number {
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  return Math.max(0, new Date(value).getTime() - now);
}
