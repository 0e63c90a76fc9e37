import "server-only";

import { hashKey, parseKey } from "@/lib/api-keys/key-format";
import { touchLastUsed } from "@/lib/api-keys/touch-last-used";
import type { Ctx } from "@/lib/context";
import { countersClient } from "@/lib/db/client";
import type { BillingStage, KeyEnvironment, KeyKind } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

import { canonicalOrigin } from "./check-origin";
import {
  BUCKET_LIMITS,
  decideRateLimit,
  sweepSometimes,
  WINDOW_MS,
  type Bucket,
  type RateLimitState,
} from "./rate-limit";

export interface AuthenticatedKey {
  keyId: string;
  workspaceId: string;
  kind: KeyKind;
  environment: KeyEnvironment;
  brandId: string | null;
  allowedOrigins: string[];
  billingStage: BillingStage | null;
  /** What the keys screen shows, e.g. `sk_live_…a1b2` (the last four are checksum): safe for logs. */
  keyLabel: string;
}

/** What the request asks of its key, for the refusals that come before the rate limit. */
export interface KeyUse {
  bucket: Bucket;
  /** Only POST /v1/subscribe admits publishable keys. */
  allowsPublishable: boolean;
  /** The request's Origin header. */
  origin: string | null;
  /** Anything but GET and HEAD. */
  write: boolean;
}

export interface Admission {
  key: AuthenticatedKey;
  /** The key's standing in the route's bucket, this request included when it was counted. */
  limits: RateLimitState;
  /** Over the limit: seconds to wait; null when within it or not counted. */
  retryAfterSeconds: number | null;
  /** False when the request is refused before the rate limit (publishable key off subscribe, secret key from a browser, origin off the allowlist, inactive workspace): such requests are not counted. */
  counted: boolean;
}

const missing = () =>
  new ApiError({
    type: "authentication_error",
    code: "missing_api_key",
    message: "Send your API key as `Authorization: Bearer <API_KEY>`.",
  });
const invalid = () =>
  new ApiError({
    type: "authentication_error",
    code: "invalid_api_key",
    message: "The API key is not recognised or has been revoked.",
  });

const LAST_USED_EVERY_MS = 60_000;

/**
 * `Authorization: Bearer <key>` and nothing else. A key with a bad checksum is
 * refused without a database look-up; a known key is looked up by its hash on
 * every request (never cached), so revocation takes effect on the next one.
 *
 * The look-up also counts the request against the key's rate limit, in the
 * same statement: one round trip instead of two on every /v1 request. The
 * statement skips the count for requests the route will refuse before the
 * rate limit; its `refused` expression mirrors those checks (api-route.ts,
 * which still makes them and words the errors), and a test holds the two
 * equal over every combination.
 */
export async function authenticate(ctx: Ctx, authorization: string | null, use: KeyUse): Promise<Admission> {
  const match = authorization ? /^Bearer ([^\s]+)$/.exec(authorization) : null;
  if (!match) throw missing();
  const key = match[1]!;
  if (!parseKey(key)) throw invalid();

  const now = ctx.clock.now().getTime();
  const windowStart = now - (now % WINDOW_MS);
  const sql = countersClient(ctx.db);
  const [row] = await sql<
    (AuthenticatedKey & { counted: boolean; current: string; previous: string; lastUsedStale: boolean })[]
  >`
    with k as (
      select k.id, k.workspace_id, k.kind, k.environment, k.brand_id, k.allowed_origins, b.stage, k.display_prefix || '…' || k.last4 as label,
             (k.last_used_at is null or k.last_used_at < ${new Date(now - LAST_USED_EVERY_MS).toISOString()}) as last_used_stale,
             ((k.kind = 'publishable' and not ${use.allowsPublishable}::boolean)
              or (k.kind = 'secret' and ${use.origin}::text is not null)
              or (k.kind = 'publishable' and cardinality(k.allowed_origins) > 0
                  and not coalesce(${use.origin === null ? null : canonicalOrigin(use.origin)}::text = any(k.allowed_origins), false))
              or coalesce(b.stage = 'deleted' or (${use.write}::boolean and b.stage in ('read_only', 'deletion_scheduled')), false)) as refused
      from api_keys k left join workspace_billing b on b.workspace_id = k.workspace_id
      where k.key_hash = ${hashKey(key)} and k.revoked_at is null
    ), counted as (
      insert into rate_limit_windows (key_id, bucket, window_start, count)
      select id, ${use.bucket}, ${new Date(windowStart).toISOString()}, 1 from k where not refused
      on conflict (key_id, bucket, window_start) do update set count = rate_limit_windows.count + 1
      returning count
    )
    select k.id as "keyId", k.workspace_id as "workspaceId", k.kind, k.environment, k.brand_id as "brandId",
           k.allowed_origins as "allowedOrigins", k.stage as "billingStage", k.label as "keyLabel", k.last_used_stale as "lastUsedStale",
           not k.refused as counted,
           coalesce((select count from counted),
                    (select w.count from rate_limit_windows w where w.key_id = k.id and w.bucket = ${use.bucket} and w.window_start = ${new Date(windowStart).toISOString()}),
                    0) as current,
           coalesce((select w.count from rate_limit_windows w
                     where w.key_id = k.id and w.bucket = ${use.bucket} and w.window_start = ${new Date(windowStart - WINDOW_MS).toISOString()}), 0) as previous
    from k`;
  if (!row) throw invalid();
  const { counted, current, previous, lastUsedStale, ...authenticated } = row;
  if (lastUsedStale) void touchLastUsed(ctx, authenticated.keyId);
  sweepSometimes(ctx, use.bucket, now, WINDOW_MS);
  const decision = decideRateLimit(
    { limit: BUCKET_LIMITS[use.bucket], windowMs: WINDOW_MS },
    now,
    Number(current),
    Number(previous),
  );
  return {
    key: authenticated,
    limits: decision.state,
    retryAfterSeconds: counted ? decision.retryAfterSeconds : null,
    counted,
  };
}
