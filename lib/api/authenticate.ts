import "server-only";

import type postgres from "postgres";

import { hashKey, parseKey } from "@/lib/api-keys/key-format";
import { touchLastUsed } from "@/lib/api-keys/touch-last-used";
import type { Ctx } from "@/lib/context";
import { closeListeningConnection, countersClient, openListeningConnection } from "@/lib/db/client";
import type { BillingStage, KeyEnvironment, KeyKind } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

import { checkKeyUse } from "./check-key-use";
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
/** Keys kept per process before the cache starts again from empty (a key is about 300 bytes). */
const MAX_CACHED_KEYS = 50_000;
/** Where lib/db/sql/api-key-changes.sql announces what changed: a key's hash, `ws:<id>` or `*`. */
const CHANNEL = "api_key_changes";

/**
 * `Authorization: Bearer <key>` and nothing else. A key with a bad checksum is
 * refused without a database look-up. A known key is admitted by the process's
 * KeyAdmission: its row from the process's cache, its request counted against
 * the key's rate limit in PostgreSQL.
 */
export async function authenticate(ctx: Ctx, authorization: string | null, use: KeyUse): Promise<Admission> {
  return processAdmission(ctx).admit(ctx, authorization, use);
}

const admissions = new WeakMap<postgres.Sql, KeyAdmission>();

/** One KeyAdmission per process and database. */
function processAdmission(ctx: Ctx): KeyAdmission {
  const pool = countersClient(ctx.db);
  let admission = admissions.get(pool);
  if (!admission) {
    admission = new KeyAdmission();
    admissions.set(pool, admission);
  }
  return admission;
}

interface CachedKey {
  key: AuthenticatedKey;
  hash: string;
  /** When this process last recorded the key's use (or found it recorded), for `last_used_at`. */
  lastUsedMs: number | null;
  /** Set once a notification (or a lost connection) took the key out of the cache. */
  dropped: boolean;
}

interface Count {
  keyId: string;
  bucket: Bucket;
  windowStartMs: number;
  /** 1 to count the request, 0 only to read the key's standing, -1 to take back a count. */
  delta: number;
  resolve: (standing: { current: number; previous: number }) => void;
  reject: (error: unknown) => void;
}

/**
 * How an app process admits /v1 requests: with no look-up of the key in PostgreSQL, and one
 * statement counting the rate limits of every request that arrived meanwhile.
 *
 * Keys. Each key's row (with its workspace's billing stage) is cached in the process once read.
 * Every write that changes what a request checks notifies the channel `api_key_changes` at commit
 * (triggers, lib/db/sql/api-key-changes.sql: revocation, an allowlist edit, a deleted key,
 * brand or workspace, a billing stage), and each process LISTENs on its own connection and drops
 * what changed. That alone would leave a gap: a request arriving just after a revocation's commit
 * could read the cache before the notification is read. The count closes it: it runs on the same
 * connection that LISTENs, and PostgreSQL delivers the notifications a listening session received
 * before that session's next ReadyForQuery, so once a request's count has returned, every change
 * committed before the request arrived has reached the cache. A key dropped meanwhile is read
 * again and the request decided on the fresh row (a revoked key: `invalid_api_key`), so a
 * revocation still applies to the very next request, on every instance. While the connection is
 * not listening (not yet, or lost: its notifications are gone) nothing is cached and nothing
 * cached is used; a read that a notification overtook is used once, not kept.
 *
 * Rate limits. Counted in PostgreSQL as before (rate_limit_windows: one budget per key across
 * instances, exact), but by one statement for all the requests waiting, whatever their key: while
 * one count is in flight the next requests queue, then go together. Each request gets the count it
 * would have had alone, in arrival order. Requests refused before the rate limit (checkKeyUse) are
 * not counted; they read the key's standing for their headers.
 */
export class KeyAdmission {
  private readonly sql: postgres.Sql;
  private readonly keys = new Map<string, CachedKey>();
  private listening: "off" | "starting" | "on" = "off";
  /** Bumped by every notification and every drop of the connection: a read it overtook is not kept. */
  private generation = 0;
  private drops = 0;
  private waiting: Count[] = [];
  private counting = false;

  constructor() {
    this.sql = openListeningConnection({
      onnotify: (channel, payload) => {
        if (channel === CHANNEL) this.forget(payload);
      },
      onclose: () => {
        this.drops++;
        this.listening = "off";
        this.forget("*");
      },
    });
  }

  async close(): Promise<void> {
    await closeListeningConnection(this.sql);
  }

  async admit(ctx: Ctx, authorization: string | null, use: KeyUse): Promise<Admission> {
    const match = authorization ? /^Bearer ([^\s]+)$/.exec(authorization) : null;
    if (!match) throw missing();
    const secret = match[1]!;
    if (!parseKey(secret)) throw invalid();
    const hash = hashKey(secret);

    const now = ctx.clock.now().getTime();
    const windowStart = now - (now % WINDOW_MS);
    let cached = await this.lookUp(hash);
    if (!cached) throw invalid();
    let counted = !refusedBeforeLimit(cached.key, use);
    let standing = await this.count(cached.key.keyId, use.bucket, windowStart, counted ? 1 : 0);
    if (cached.dropped) {
      // Changed while this request was on its way (see the class): decide on the row as it is now.
      cached = await this.lookUp(hash);
      if (!cached) throw invalid();
      const countedNow = !refusedBeforeLimit(cached.key, use);
      if (countedNow !== counted) {
        standing = await this.count(cached.key.keyId, use.bucket, windowStart, countedNow ? 1 : -1);
        counted = countedNow;
      }
    }
    if (cached.lastUsedMs === null || cached.lastUsedMs < now - LAST_USED_EVERY_MS) {
      cached.lastUsedMs = now;
      void touchLastUsed(ctx, cached.key.keyId);
    }
    sweepSometimes(ctx, use.bucket, now, WINDOW_MS);
    const decision = decideRateLimit(
      { limit: BUCKET_LIMITS[use.bucket], windowMs: WINDOW_MS },
      now,
      standing.current,
      standing.previous,
    );
    return {
      key: cached.key,
      limits: decision.state,
      retryAfterSeconds: counted ? decision.retryAfterSeconds : null,
      counted,
    };
  }

  /** The key's row: from the cache while the connection listens, else read (and kept if nothing changed meanwhile). */
  private async lookUp(hash: string): Promise<CachedKey | null> {
    if (this.listening === "on") {
      const cached = this.keys.get(hash);
      if (cached) return cached;
    } else this.listen();
    const keepable = this.listening === "on";
    const { generation, drops } = this;
    const [row] = await this.sql<(AuthenticatedKey & { lastUsedMs: number | null })[]>`
      select k.id as "keyId", k.workspace_id as "workspaceId", k.kind, k.environment, k.brand_id as "brandId",
             k.allowed_origins as "allowedOrigins", b.stage as "billingStage", k.display_prefix || '…' || k.last4 as "keyLabel",
             (extract(epoch from k.last_used_at) * 1000)::float8 as "lastUsedMs"
      from api_keys k left join workspace_billing b on b.workspace_id = k.workspace_id
      where k.key_hash = ${hash} and k.revoked_at is null`;
    if (!row) return null;
    const { lastUsedMs, ...key } = row;
    const cached: CachedKey = { key, hash, lastUsedMs, dropped: false };
    if (keepable && this.listening === "on" && generation === this.generation && drops === this.drops) {
      if (this.keys.size >= MAX_CACHED_KEYS) this.keys.clear();
      this.keys.set(hash, cached);
    }
    return cached;
  }

  private listen(): void {
    if (this.listening !== "off") return;
    this.listening = "starting";
    const drops = this.drops;
    this.sql.unsafe(`listen ${CHANNEL}`).then(
      () => {
        if (drops === this.drops && this.listening === "starting") this.listening = "on";
      },
      () => {
        if (drops === this.drops && this.listening === "starting") this.listening = "off";
      },
    );
  }

  /** A notification's payload: a key's hash, `ws:<workspace id>` or `*`. */
  private forget(payload: string): void {
    this.generation++;
    const workspaceId = payload.startsWith("ws:") ? payload.slice(3) : null;
    for (const [hash, cached] of this.keys) {
      if (payload === "*" || hash === payload || cached.key.workspaceId === workspaceId) {
        cached.dropped = true;
        this.keys.delete(hash);
      }
    }
  }

  /** Adds `delta` to the key's count in this window; resolves with the count as of this request, and the previous window's. */
  private count(
    keyId: string,
    bucket: Bucket,
    windowStartMs: number,
    delta: number,
  ): Promise<{ current: number; previous: number }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ keyId, bucket, windowStartMs, delta, resolve, reject });
      if (this.counting) return;
      this.counting = true;
      process.nextTick(() => void this.countWaiting());
    });
  }

  private async countWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const counts = this.waiting;
      this.waiting = [];
      try {
        await this.countTogether(counts);
      } catch (error) {
        for (const count of counts) count.reject(error);
      }
    }
    this.counting = false;
  }

  private async countTogether(counts: Count[]): Promise<void> {
    if (this.listening !== "on") this.listen(); // sent first on the connection: this count then also waits for it
    // Ids and bucket names hold no comma. One row per key, bucket and window; `delta` sums the batch's.
    const rows = await this.sql<{ slot: string; delta: number; current: number; previous: number }[]>`
      with batch as (
        select key_id, bucket, window_ms, sum(delta)::int as delta
        from unnest(string_to_array(${counts.map((c) => c.keyId).join(",")}, ','),
                    string_to_array(${counts.map((c) => c.bucket).join(",")}, ','),
                    string_to_array(${counts.map((c) => c.windowStartMs).join(",")}, ',')::bigint[],
                    string_to_array(${counts.map((c) => c.delta).join(",")}, ',')::int[]) as c(key_id, bucket, window_ms, delta)
        group by key_id, bucket, window_ms
      ), counted as (
        insert into rate_limit_windows (key_id, bucket, window_start, count)
        select key_id, bucket, to_timestamp(window_ms / 1000.0), delta from batch where delta <> 0
        order by key_id, bucket, window_ms -- rows locked in one order: two instances' counts cannot deadlock
        on conflict (key_id, bucket, window_start) do update set count = rate_limit_windows.count + excluded.count
        returning key_id, bucket, (extract(epoch from window_start) * 1000)::bigint as window_ms, count
      )
      select b.key_id || ' ' || b.bucket || ' ' || b.window_ms as slot, b.delta,
             coalesce(c.count,
                      (select w.count from rate_limit_windows w
                       where w.key_id = b.key_id and w.bucket = b.bucket and w.window_start = to_timestamp(b.window_ms / 1000.0)),
                      0) as current,
             coalesce((select w.count from rate_limit_windows w
                       where w.key_id = b.key_id and w.bucket = b.bucket and w.window_start = to_timestamp((b.window_ms - ${WINDOW_MS}) / 1000.0)),
                      0) as previous
      from batch b left join counted c on c.key_id = b.key_id and c.bucket = b.bucket and c.window_ms = b.window_ms`;
    const slots = new Map(rows.map((row) => [row.slot, { ...row, running: row.current - row.delta }]));
    for (const count of counts) {
      const slot = slots.get(`${count.keyId} ${count.bucket} ${count.windowStartMs}`);
      if (!slot) {
        count.reject(new Error("the rate-limit count returned no row for a request"));
        continue;
      }
      slot.running += count.delta;
      count.resolve({ current: slot.running, previous: slot.previous });
    }
  }
}

/** Whether checkKeyUse refuses the request before the rate limit (such a request is not counted). */
function refusedBeforeLimit(key: AuthenticatedKey, use: KeyUse): boolean {
  try {
    checkKeyUse(key, use);
    return false;
  } catch (error) {
    if (error instanceof ApiError) return true;
    throw error;
  }
}
