import { ApiError, validationFailed } from "@/lib/errors";

export const INTERVALS = ["day", "week", "month"] as const;
export type Interval = (typeof INTERVALS)[number];

export const MAX_BUCKETS = 400;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `from` / `to`: a plain date, read as UTC midnight, or a full timestamp with
 * its zone (`Z` or an offset). Anything else, or a date that does not exist
 * (2026-02-30), is `validation_failed` naming the parameter.
 */
export function parseInstant(value: string | undefined, param: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = DATE.exec(value);
  if (date) {
    const at = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
    if (at.toISOString().slice(0, 10) === value) return at;
  } else if (TIMESTAMP.test(value)) {
    const at = new Date(value);
    // Date accepts 25:00 or Feb 30 by rolling over: the wall-clock part, read as if it were UTC, must survive the round trip.
    const wallClock = new Date(`${value.slice(0, 16)}Z`);
    if (
      !Number.isNaN(at.getTime()) &&
      !Number.isNaN(wallClock.getTime()) &&
      wallClock.toISOString().slice(0, 16) === value.slice(0, 16)
    )
      return at;
  }
  throw validationFailed(
    param,
    `\`${param}\` must be a date (YYYY-MM-DD, read as UTC) or a full timestamp such as 2026-01-05T10:00:00.000Z.`,
  );
}

/** `from` must come before `to` (`to` is exclusive). */
export function assertOrdered(from: Date | undefined, to: Date | undefined): void {
  if (from && to && from.getTime() >= to.getTime())
    throw validationFailed("from", "`from` must be before `to` (`to` is exclusive).");
}

/** Start of the UTC day, ISO week (Monday) or month containing `at`. */
export function alignToInterval(at: Date, interval: Interval): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (interval === "day") return day;
  if (interval === "week") return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextBucket(start: Date, interval: Interval): Date {
  if (interval === "day") return new Date(start.getTime() + DAY_MS);
  if (interval === "week") return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/**
 * The interval-aligned bucket starts covering [from, to): the first is the
 * start of the interval containing `from`, so first and last can be partial.
 * More than 400 is refused with `too_many_buckets` (docs/readings.md, "Sizes").
 */
export function bucketStarts(from: Date, to: Date, interval: Interval): Date[] {
  const starts: Date[] = [];
  for (let at = alignToInterval(from, interval); at < to; at = nextBucket(at, interval)) {
    if (starts.length === MAX_BUCKETS) throw tooManyBuckets(interval);
    starts.push(at);
  }
  return starts;
}

function tooManyBuckets(interval: Interval): ApiError {
  const coarser =
    interval === "day" ? "`interval=week` or `interval=month`" : interval === "week" ? "`interval=month`" : null;
  return new ApiError({
    type: "invalid_request_error",
    code: "too_many_buckets",
    param: "interval",
    message: `The window holds more than ${MAX_BUCKETS} ${interval} buckets. ${coarser ? `Use ${coarser}, or split the range into shorter windows.` : "Split the range into shorter windows."}`,
  });
}

export type Grain = "d" | "m" | "x";

/**
 * The window a report counts: [from, to) as asked, except that an end older than the exact-instant
 * rollups are kept (RETENTION_EXACT_ROLLUPS_DAYS) is widened to its whole minute, from down and to
 * up, since only the minute and day rollups remain that far back. The answer's `period` states the
 * widened window, and the ETag covers it: the figures of a window change only with it.
 */
export function countableWindow(from: Date, to: Date, exactSince: Date): { from: Date; to: Date } {
  const widen = (at: Date, round: (n: number) => number) =>
    at.getTime() < exactSince.getTime() ? new Date(round(at.getTime() / MINUTE_MS) * MINUTE_MS) : at;
  return { from: widen(from, Math.floor), to: widen(to, Math.ceil) };
}

/**
 * How the rollups cover [from, to) with no overlap: whole UTC days from the
 * day grain, the whole minutes of the ragged ends from the minute grain, and
 * the partial minutes at the very ends from the exact grain. Each range is
 * [lo, hi) on the rows' `bucket_at`.
 */
export function rollupCoverage(from: Date, to: Date): { grain: Grain; lo: Date; hi: Date }[] {
  const f = from.getTime();
  const t = to.getTime();
  const ceil = (ms: number, step: number) => Math.ceil(ms / step) * step;
  const floor = (ms: number, step: number) => Math.floor(ms / step) * step;
  const range = (grain: Grain, lo: number, hi: number) =>
    lo < hi ? [{ grain, lo: new Date(lo), hi: new Date(hi) }] : [];
  const firstMinute = ceil(f, MINUTE_MS);
  const lastMinute = floor(t, MINUTE_MS);
  if (firstMinute >= lastMinute) return range("x", f, t);
  const ends = [...range("x", f, firstMinute), ...range("x", lastMinute, t)];
  const firstDay = ceil(f, DAY_MS);
  const lastDay = floor(t, DAY_MS);
  if (firstDay >= lastDay) return [...ends, ...range("m", firstMinute, lastMinute)];
  return [
    ...ends,
    ...range("m", firstMinute, firstDay),
    ...range("m", lastDay, lastMinute),
    ...range("d", firstDay, lastDay),
  ];
}
