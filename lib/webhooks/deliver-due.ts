import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import { withTransaction, type Ctx } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { CONNECTIONS_PER_ENDPOINT, DELIVERY_TIMEOUT_MS, postWebhook, type PostResult } from "./post-webhook";
import { recordEndpointHealth } from "./endpoint-health";
import { requestDeliveryAt, wakeLockKey } from "./request-delivery";
import { retryDelayMs } from "./retry-schedule";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";

/** Deliveries claimed at once: enough to keep every connection busy, few enough to record in one statement. */
const CLAIM_BATCH = 256;
/** One contact's deliveries in a batch are posted one after another; a longer run of them waits for the next batch. */
const MAX_CHAIN = 8;
/**
 * How long a claim holds its deliveries: longer than the slowest batch can take
 * (each connection posting its share, every post timing out and retried once),
 * so a claim only lapses when the run that made it died.
 */
const CLAIM_MS = Math.ceil(CLAIM_BATCH / CONNECTIONS_PER_ENDPOINT + MAX_CHAIN) * 2 * DELIVERY_TIMEOUT_MS;
/** How soon to look again when deliveries are due but none could be claimed. */
const RECHECK_MS = 5_000;
/** A step hands back after this long, so the run's progress is saved and a shutdown is not held up. */
const STEP_BUDGET_MS = 5_000;

type Endpoint = typeof webhookEndpoints.$inferSelect;

interface Claimed {
  id: string;
  /** The endpoint's secret, read with the claim: a rotation after it makes the delivery due again (generation). */
  secret: string;
  orderKey: string;
  attemptCount: number;
  generation: number;
  eventId: string;
  type: string;
  createdAtMs: string;
  data: unknown;
}

interface Attempt {
  delivery: Claimed;
  attemptedAt: Date;
  /** When the answer (or the failure) came: a retry waits from here. */
  finishedAt: Date;
  result: PostResult;
  succeeded: boolean;
}

export interface DrainOutcome {
  succeeded: number;
  failed: number;
  /** Deliveries are still due: run again at once. */
  more: boolean;
  /** Why the run stops for good. */
  stopped?: "endpoint_deleted" | "endpoint_disabled";
}

/** The body receivers get; its `id` is inside the signed bytes and is their de-duplication key. */
export function envelope(event: { id: string; type: string; createdAt: Date; data: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data });
}

/**
 * Posts an endpoint's due deliveries, a batch at a time: each claimed in one
 * statement, posted over kept connections (one contact's one after another,
 * in event order; up to CONNECTIONS_PER_ENDPOINT at once), every attempt
 * recorded in one transaction with the retries it schedules. Stops when none
 * is due, asking for a run at the next retry time, or after STEP_BUDGET_MS.
 */
export async function deliverDue(ctx: Ctx, endpointId: string): Promise<DrainOutcome> {
  const started = performance.now();
  const outcome: DrainOutcome = { succeeded: 0, failed: 0, more: false };
  // Before looking: a transaction that queues deliveries from now on asks for a new run (request-delivery.ts).
  let endpoint = await withTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`select pg_advisory_xact_lock(${wakeLockKey(sql`${endpointId}`)})`);
    const [bumped] = await tx.db
      .update(webhookEndpoints)
      .set({ deliveryWake: sql`${webhookEndpoints.deliveryWake} + 1` })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning();
    return bumped;
  });
  while (endpoint) {
    if (!endpoint.enabled) {
      await giveUpPending(ctx, endpointId);
      return { ...outcome, stopped: "endpoint_disabled" };
    }
    const chains = await claimDue(ctx, endpointId);
    if (chains.length === 0) break;
    const attempts = await postBatch(endpoint, chains, ctx.clock);
    await recordAttempts(ctx, endpointId, attempts);
    for (const attempt of attempts) outcome[attempt.succeeded ? "succeeded" : "failed"]++;
    if (performance.now() - started > STEP_BUDGET_MS) return { ...outcome, more: true };
    // Read again for every batch: the endpoint may have been disabled, deleted or given a new URL.
    [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
  }
  if (!endpoint) return { ...outcome, stopped: "endpoint_deleted" };
  const nextDue = await nextDueAt(ctx, endpointId);
  if (nextDue === null) return outcome;
  const now = ctx.clock.now().getTime();
  // Due but not claimable (locked by another transaction, or its contact waiting for a dead run's claim to lapse): look again shortly, not at once.
  await requestDeliveryAt(ctx, endpointId, nextDue.getTime() > now ? nextDue : new Date(now + RECHECK_MS));
  return outcome;
}

/**
 * Claims the next due deliveries, oldest due first. SKIP LOCKED and the claim
 * mark keep two runs (two instances, or a run taken over after its lease
 * lapsed) from posting the same delivery.
 */
async function claimDue(ctx: Ctx, endpointId: string): Promise<Claimed[][]> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + CLAIM_MS);
  const claimed = await ctx.db.execute<Claimed & { [key: string]: unknown }>(sql`
    with held as (
      -- Contacts with deliveries still claimed (by a run that died, its claim not yet lapsed) wait: their order holds.
      select distinct order_key from webhook_deliveries
      where endpoint_id = ${endpointId} and claimed_until > ${now.toISOString()}::timestamptz and status = 'pending'
    ), due as (
      select d.id from webhook_deliveries d
      where d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz
        and (d.claimed_until is null or d.claimed_until <= ${now.toISOString()}::timestamptz)
        and d.order_key not in (select order_key from held)
      order by d.next_attempt_at, d.id
      limit ${CLAIM_BATCH}
      for update skip locked
    ), claimed as (
      update webhook_deliveries d set claimed_until = ${until.toISOString()}::timestamptz
      from due where d.id = due.id
      returning d.id, d.event_id, d.order_key, d.attempt_count, d.generation, d.next_attempt_at
    )
    select c.id, w.signing_secret as secret, c.order_key as "orderKey", c.attempt_count as "attemptCount", c.generation,
      e.id as "eventId", e.type, (extract(epoch from e.created_at) * 1000)::bigint::text as "createdAtMs", e.data
    from claimed c join events e on e.id = c.event_id join webhook_endpoints w on w.id = ${endpointId}
    order by c.next_attempt_at, c.id`);
  const chains = new Map<string, Claimed[]>();
  const released: string[] = [];
  for (const delivery of claimed) {
    const chain = chains.get(delivery.orderKey) ?? [];
    if (chain.length === MAX_CHAIN) released.push(delivery.id);
    else chains.set(delivery.orderKey, [...chain, delivery]);
  }
  if (released.length > 0) {
    await ctx.db.execute(
      sql`update webhook_deliveries set claimed_until = null where id in (${sql.join(
        released.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  return [...chains.values()];
}

/**
 * Posts a batch: each contact's deliveries one after another, in event order,
 * whatever the previous one's outcome (a failure waits for its retry without
 * holding back the next); up to CONNECTIONS_PER_ENDPOINT contacts at once.
 */
async function postBatch(endpoint: Endpoint, chains: Claimed[][], clock: Clock): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  let next = 0;
  const lane = async () => {
    while (next < chains.length) for (const delivery of chains[next++]!) attempts.push(await post(endpoint, delivery, clock));
  };
  await Promise.all(Array.from({ length: CONNECTIONS_PER_ENDPOINT }, lane));
  return attempts;
}

/** One attempt, signed afresh with the endpoint's secret as of the claim. Never throws: a fault of ours is a failed attempt too. */
async function post(endpoint: Endpoint, delivery: Claimed, clock: Clock): Promise<Attempt> {
  const attemptedAt = clock.now();
  let result: PostResult;
  try {
    const body = envelope({ id: delivery.eventId, type: delivery.type, createdAt: new Date(Number(delivery.createdAtMs)), data: delivery.data });
    result = await postWebhook(endpoint.id, endpoint.url, body, {
      "content-type": "application/json",
      "user-agent": "mailservice-webhooks/1",
      [SIGNATURE_HEADER]: signatureHeader(delivery.secret, body, attemptedAt.getTime()),
      "x-service-event-id": delivery.eventId,
      "x-service-event-type": delivery.type,
    });
  } catch (error) {
    result = { statusCode: null, latencyMs: 0, responseExcerpt: null, error: error instanceof Error ? error.message : String(error) };
  }
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  return { delivery, attemptedAt, finishedAt: clock.now(), result, succeeded };
}

/**
 * Records a batch's attempts and what follows from each: success, the next
 * retry on the schedule, or giving up. A delivery whose generation moved on
 * while it was posted (a rotation made it due at once) keeps the rotation's
 * retry time unless this attempt succeeded.
 */
async function recordAttempts(ctx: Ctx, endpointId: string, attempts: Attempt[]): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await recordEndpointHealth(tx, endpointId, attempts, tx.clock.now());
    const rows = attempts.map(({ delivery, attemptedAt, finishedAt, result, succeeded }) => {
      const delay = succeeded ? null : retryDelayMs(delivery.attemptCount + 1);
      return {
        id: newId("wha"),
        deliveryId: delivery.id,
        generation: delivery.generation,
        attemptedAt: attemptedAt.toISOString(),
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        responseExcerpt: result.responseExcerpt,
        error: result.error ?? (succeeded ? null : `receiver answered ${result.statusCode}`),
        succeeded,
        status: succeeded ? "succeeded" : delay === null ? "failed" : "pending",
        nextAttemptAt: delay === null ? null : new Date(finishedAt.getTime() + delay).toISOString(),
      };
    });
    const json = sql`${JSON.stringify(rows)}::jsonb`;
    await tx.db.execute(sql`
      insert into webhook_attempts (id, delivery_id, attempted_at, status_code, latency_ms, response_excerpt, error)
      select x.id, x."deliveryId", x."attemptedAt", x."statusCode", x."latencyMs", x."responseExcerpt", x.error
      from jsonb_to_recordset(${json}) as x(id text, "deliveryId" text, "attemptedAt" timestamptz, "statusCode" int, "latencyMs" int, "responseExcerpt" text, error text)`);
    await tx.db.execute(sql`
      update webhook_deliveries d set
        attempt_count = d.attempt_count + 1,
        last_attempt_at = x."attemptedAt",
        claimed_until = null,
        status = case when x.succeeded then 'succeeded' when d.generation = x.generation then x.status else d.status end,
        next_attempt_at = case when x.succeeded then null when d.generation = x.generation then x."nextAttemptAt" else d.next_attempt_at end
      from jsonb_to_recordset(${json}) as x("deliveryId" text, generation int, succeeded boolean, status text, "attemptedAt" timestamptz, "nextAttemptAt" timestamptz)
      where d.id = x."deliveryId"`);
  });
}

/** A disabled endpoint gets nothing more: what it still had pending is given up. */
async function giveUpPending(ctx: Ctx, endpointId: string): Promise<void> {
  await ctx.db.execute(sql`
    update webhook_deliveries set status = 'failed', next_attempt_at = null, claimed_until = null
    where endpoint_id = ${endpointId} and status = 'pending'`);
}

/**
 * When the endpoint's next pending delivery is due, or null when none is
 * pending. A claimed one is due when its claim lapses (its run died).
 */
async function nextDueAt(ctx: Ctx, endpointId: string): Promise<Date | null> {
  const [row] = await ctx.db.execute<{ at: string | null }>(sql`
    select (extract(epoch from least(
      (select next_attempt_at from webhook_deliveries
        where endpoint_id = ${endpointId} and status = 'pending' and claimed_until is null order by next_attempt_at limit 1),
      (select min(greatest(next_attempt_at, claimed_until)) from webhook_deliveries
        where endpoint_id = ${endpointId} and status = 'pending' and claimed_until is not null)
    )) * 1000)::bigint::text as at`);
  return row?.at ? new Date(Number(row.at)) : null;
}
