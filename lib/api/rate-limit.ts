import "server-only";

import type { Ctx } from "@/lib/context";
import { countersClient } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";

/** Requests per minute per key, by bucket (docs/readings.md, "Rate limits"). Each GET route has a bucket of its own. */
export const BUCKET_LIMITS = {
  subscribe: 30,
  "contacts.create": 120,
  "contacts.list": 120,
  "contacts.get": 120,
  "contacts.erase": 60,
  "topics.list": 120,
  "lists.list": 120,
  "lists.members": 60,
  "events.create": 300,
  "suppressions.list": 120,
  "suppressions.write": 120,
  reports: 30,
} as const;
export type Bucket = keyof typeof BUCKET_LIMITS;

/** The /v1 buckets' window: requests per minute. */
export const WINDOW_MS = 60_000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}

/** A limit on one bucket: at most `limit` per sliding window of `windowMs`. */
export interface RateLimitPolicy {
  bucket: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts this request and decides. Sliding window: the previous minute's
 * count, weighted by how much of it still overlaps the last 60 seconds, plus
 * this minute's. Counts live in PostgreSQL (one round trip) so every app
 * instance shares them. Refused requests count too: hammering keeps a key out.
 */
export async function consumeRateLimit(ctx: Ctx, keyId: string, bucket: Bucket): Promise<RateLimitState> {
  const { state, retryAfterSeconds } = await countRateLimit(ctx, keyId, {
    bucket,
    limit: BUCKET_LIMITS[bucket],
    windowMs: WINDOW_MS,
  });
  if (retryAfterSeconds === null) return state;
  throw rateLimited(state, retryAfterSeconds);
}

/** 429 `rate_limited`, with the RateLimit headers and Retry-After. */
export function rateLimited(state: RateLimitState, retryAfterSeconds: number): ApiError {
  return new ApiError({
    type: "rate_limit_error",
    code: "rate_limited",
    message: `Too many requests for this key. Retry after ${retryAfterSeconds} seconds.`,
    headers: { ...rateLimitHeaders(state), "Retry-After": String(retryAfterSeconds) },
  });
}

/**
 * The counting behind consumeRateLimit, for any window length (sign-in uses
 * 15 minutes): counts this request and says how long to wait when it is over
 * the limit, null when it is within it.
 */
export async function countRateLimit(
  ctx: Ctx,
  keyId: string,
  { bucket, limit, windowMs }: RateLimitPolicy,
): Promise<{ state: RateLimitState; retryAfterSeconds: number | null }> {
  const now = ctx.clock.now().getTime();
  const windowStart = now - (now % windowMs);
  const sql = countersClient(ctx.db);
  const rows = await sql<{ current: number; previous: number }[]>`
    with counted as (
      insert into rate_limit_windows (key_id, bucket, window_start, count)
      values (${keyId}, ${bucket}, ${new Date(windowStart).toISOString()}, 1)
      on conflict (key_id, bucket, window_start) do update set count = rate_limit_windows.count + 1
      returning count
    )
    select (select count from counted) as current,
           coalesce((select count from rate_limit_windows
                     where key_id = ${keyId} and bucket = ${bucket} and window_start = ${new Date(windowStart - windowMs).toISOString()}), 0) as previous`;
  const decision = decideRateLimit({ limit, windowMs }, now, Number(rows[0]!.current), Number(rows[0]!.previous));
  sweepSometimes(ctx, bucket, now, windowMs);
  return decision;
}

/** The rate limit's answer once this request is counted: `current` includes it, `previous` is the last window's count. */
export function decideRateLimit(
  policy: Omit<RateLimitPolicy, "bucket">,
  now: number,
  current: number,
  previous: number,
): { state: RateLimitState; retryAfterSeconds: number | null } {
  const { limit, windowMs } = policy;
  const { state, used, untilWindowEnd } = weigh(policy, now, current, previous);
  if (used <= limit) return { state, retryAfterSeconds: null };

  const retryAfterMs =
    current >= limit
      ? // Wait for this window to become the previous one and decay below the limit.
        untilWindowEnd + windowMs * (1 - limit / (current + 1))
      : // The previous window's weight has to decay enough.
        untilWindowEnd - ((limit - current) * windowMs) / Math.max(previous, 1);
  return { state, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/** Sliding window: the previous window's count, weighted by how much of it still overlaps, plus this window's. */
function weigh({ limit, windowMs }: Omit<RateLimitPolicy, "bucket">, now: number, current: number, previous: number) {
  const untilWindowEnd = windowMs - (now % windowMs);
  const used = (previous * untilWindowEnd) / windowMs + current;
  const state = {
    limit,
    remaining: Math.max(0, Math.floor(limit - used)),
    resetSeconds: Math.max(1, Math.ceil(untilWindowEnd / 1000)),
  };
  return { state, used, untilWindowEnd };
}

/** Windows that ended more than one window ago can no longer matter; each bucket sweeps its own, on about one request in a thousand. */
export function sweepSometimes(ctx: Ctx, bucket: string, now: number, windowMs: number): void {
  if (Math.random() >= 0.001) return;
  const sql = countersClient(ctx.db);
  void sql`delete from rate_limit_windows where bucket = ${bucket} and window_start < ${new Date(now - 2 * windowMs).toISOString()}`.catch(
    () => {},
  );
}
