import "server-only";

import { eq, sql } from "drizzle-orm";

import type { Clock } from "@/lib/clock";
import { withTransaction, type Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { webhookEndpoints } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { recordEndpointHealth } from "./endpoint-health";
import { takeEndpointLease, type EndpointLease } from "./endpoint-lease";
import { CONNECTIONS_PER_ENDPOINT, postWebhook, type PostResult } from "./post-webhook";
import { requestDeliveryAt, wakeLockKey } from "./request-delivery";
import { retryDelayMs } from "./retry-schedule";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";

/**
 * Deliveries read at once: enough contacts that every connection stays busy while each posts one
 * contact's chain in order, and few database round trips per delivery; few enough to record in one statement.
 */
export const DELIVERIES_PER_BATCH = 1024;
/** One contact's deliveries in a batch are posted one after another; a longer run of them waits for the next batch. */
const MAX_CHAIN = 8;
/** How soon at the earliest to look again when another run holds the lease, or deliveries were due but not read. */
const RECHECK_MS = 5_000;
/** A step hands back after this long, so the run's progress is saved and a shutdown is not held up. */
const STEP_BUDGET_MS = 5_000;

type Endpoint = typeof webhookEndpoints.$inferSelect;

export interface Due {
  id: string;
  orderKey: string;
  attemptCount: number;
  eventId: string;
  type: string;
  /** ISO 8601 in UTC, as Date#toISOString prints it. */
  createdAt: string;
  dataJson: string;
}

interface Attempt {
  delivery: Due;
  /** The secret that signed it: a failure is retried at once if the endpoint's secret has changed since. */
  secret: string;
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

/**
 * The body receivers get; its `id` is inside the signed bytes and is their de-duplication key. `data`
 * is the event's stored JSON text as PostgreSQL prints it, spliced in rather than parsed and printed
 * again here: that round trip was a tenth of the delivery loop's own CPU time.
 */
export function envelope(event: { id: string; type: string; createdAt: string; dataJson: string }): string {
  return `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(event.createdAt)},"data":${event.dataJson}}`;
}

/**
 * Posts an endpoint's due deliveries under its lease (endpoint-lease.ts), a
 * batch at a time: each read in one statement, posted over kept connections
 * (one contact's one after another, in event order; up to
 * CONNECTIONS_PER_ENDPOINT at once), every attempt recorded in one
 * transaction with the retry it schedules. While a batch posts, the next is
 * read and the one before is recorded, so between batches the connections
 * wait only for the lease's renewal; a batch with a failure is recorded before
 * the next is read. Stops when none is due, asking for a run at the next retry
 * time, or after STEP_BUDGET_MS.
 */
export async function deliverDue(ctx: Ctx, endpointId: string): Promise<DrainOutcome> {
  const until = performance.now() + STEP_BUDGET_MS;
  const outcome: DrainOutcome = { succeeded: 0, failed: 0, more: false };
  // Before looking: a transaction that queues deliveries from now on asks for a new run (request-delivery.ts).
  await withTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`select pg_advisory_xact_lock(${wakeLockKey(sql`${endpointId}`)})`);
    await tx.db
      .update(webhookEndpoints)
      .set({ deliveryWake: sql`${webhookEndpoints.deliveryWake} + 1` })
      .where(eq(webhookEndpoints.id, endpointId));
  });
  const taken = await takeEndpointLease(ctx, endpointId);
  if ("deleted" in taken) return { ...outcome, stopped: "endpoint_deleted" };
  if ("heldUntil" in taken) {
    // Another run still posts (or died holding the lease): look again once it would have lapsed.
    await requestDeliveryAt(
      ctx,
      endpointId,
      new Date(Math.max(taken.heldUntil.getTime(), ctx.clock.now().getTime() + RECHECK_MS)),
    );
    return outcome;
  }
  const { lease } = taken;
  // Every record started so far, one after another, and the read made while the last batch posted: the lease is
  // given up only once they are settled, since a delivery stays pending until its record commits. A record that
  // fails skips those after it, and so does the read waiting for it: a contact's later events are never recorded
  // while its earlier ones stay due, and the next holder posts both batches again, in order.
  let recording: Promise<void> = Promise.resolve();
  let reading: Promise<unknown> = Promise.resolve();
  const record = (attempts: Attempt[]) =>
    (recording = handled(recording.then(() => recordAttempts(ctx, endpointId, attempts))));
  try {
    let endpoint: Endpoint | null = lease.endpoint;
    let chains = endpoint.enabled ? await readDue(ctx, endpointId, []) : [];
    while (endpoint) {
      if (!endpoint.enabled) {
        await recording;
        await giveUpPending(ctx, endpointId);
        return { ...outcome, stopped: "endpoint_disabled" };
      }
      if (chains.length === 0) break;
      // While this batch posts, the one before is recorded, then the next is read. That read leaves out this
      // batch, whose deliveries stay pending until their record commits.
      const inFlight = chains.flat().map((delivery) => delivery.id);
      const next = handled(recording.then(() => readDue(ctx, endpointId, inFlight)));
      reading = next;
      const attempts = await postBatch(chains, ctx.clock, lease, until);
      for (const attempt of attempts) outcome[attempt.succeeded ? "succeeded" : "failed"]++;
      // Not all posted (the lease in doubt, renewals failing or taken over, or the step's time spent): what was not
      // posted stays due, and the next step takes the lease again or, if another run holds it, asks for a run once
      // that lease would lapse.
      const handBack = attempts.length < inFlight.length || !lease.held() || performance.now() >= until;
      if (handBack || attempts.some((attempt) => !attempt.succeeded)) {
        // Recorded before anything more is read or posted: a failure may disable the endpoint or, its secret rotated
        // meanwhile, be due again at once. The read made during the posts is set aside.
        await Promise.allSettled([next]);
        await record(attempts);
        if (handBack) return { ...outcome, more: true };
        endpoint = await lease.renew();
        chains = endpoint?.enabled ? await readDue(ctx, endpointId, []) : [];
        continue;
      }
      // Renewed for every batch, which reads the endpoint again: it may have been disabled, deleted or given a new
      // URL or secret. Before the batch's record, which locks the endpoint's row too; recorded however the renewal ends.
      try {
        endpoint = await lease.renew();
      } finally {
        record(attempts);
      }
      chains = await next;
    }
    await recording;
    if (!endpoint) {
      const [still] = await ctx.db
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, endpointId));
      // Still there, so the lease was lost: as above.
      return still ? { ...outcome, more: true } : { ...outcome, stopped: "endpoint_deleted" };
    }
  } finally {
    await Promise.allSettled([recording, reading]);
    await lease.release();
  }
  const nextDue = await nextDueAt(ctx, endpointId);
  if (nextDue === null) return outcome;
  const now = ctx.clock.now().getTime();
  // Due now yet not read: queued after the last read (its transaction asks for a run too) or made due by a
  // rotation since (which asks too). Looked at again shortly all the same, not in a loop at once.
  await requestDeliveryAt(ctx, endpointId, nextDue.getTime() > now ? nextDue : new Date(now + RECHECK_MS));
  return outcome;
}

/** The same promise, marked as handled: it is awaited later, and may fail before then without failing the process. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * The next due deliveries, oldest due first, grouped into one chain per
 * contact of at most MAX_CHAIN; the rest of a longer chain waits for the next
 * batch. Nothing is written: the lease is what keeps two runs apart.
 */
async function readDue(ctx: Ctx, endpointId: string, inFlight: string[]): Promise<Due[][]> {
  const now = ctx.clock.now().toISOString();
  const due = await ctx.db.execute<Due & { [key: string]: unknown }>(sql`
    select d.id, d.order_key as "orderKey", d.attempt_count as "attemptCount",
      e.id as "eventId", e.type, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt", e.data::text as "dataJson"
    from webhook_deliveries d join events e on e.id = d.event_id
    where d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at <= ${now}::timestamptz
      and d.id not in (select unnest(${idArray(inFlight)}))
    order by d.next_attempt_at, d.id
    limit ${DELIVERIES_PER_BATCH}`);
  const chains = new Map<string, Due[]>();
  for (const delivery of due) {
    const chain = chains.get(delivery.orderKey) ?? [];
    if (chain.length < MAX_CHAIN) chains.set(delivery.orderKey, [...chain, delivery]);
  }
  return [...chains.values()];
}

/**
 * Posts a batch: each contact's deliveries one after another, in event order,
 * whatever the previous one's outcome (a failure waits for its retry without
 * holding back the next); up to CONNECTIONS_PER_ENDPOINT contacts at once.
 * Nothing more is posted once the lease is no longer surely held, nor once the
 * step's time (`until`, on performance.now) is spent: on a slow endpoint a whole
 * batch would hold the step for minutes. What is not posted stays due.
 */
export async function postBatch(
  chains: Due[][],
  clock: Clock,
  lease: EndpointLease,
  until: number,
): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  let next = 0;
  const lane = async () => {
    // Each lane posts once whatever the time: a step whose reads were slow still makes progress.
    let posted = false;
    while (next < chains.length) {
      for (const delivery of chains[next++]!) {
        if (!lease.held() || (posted && performance.now() >= until)) return;
        attempts.push(await post(lease.endpoint, delivery, clock));
        posted = true;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS_PER_ENDPOINT }, lane));
  return attempts;
}

/** One attempt, signed with the endpoint's secret as the lease last read it. Never throws: a fault of ours is a failed attempt too. */
async function post(endpoint: Endpoint, delivery: Due, clock: Clock): Promise<Attempt> {
  const attemptedAt = clock.now();
  let result: PostResult;
  try {
    const body = envelope({
      id: delivery.eventId,
      type: delivery.type,
      createdAt: delivery.createdAt,
      dataJson: delivery.dataJson,
    });
    result = await postWebhook(endpoint.id, endpoint.url, body, {
      "content-type": "application/json",
      "user-agent": "mailservice-webhooks/1",
      [SIGNATURE_HEADER]: signatureHeader(endpoint.signingSecret, body, attemptedAt.getTime()),
      "x-service-event-id": delivery.eventId,
      "x-service-event-type": delivery.type,
    });
  } catch (error) {
    result = {
      statusCode: null,
      latencyMs: 0,
      responseExcerpt: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  return { delivery, secret: endpoint.signingSecret, attemptedAt, finishedAt: clock.now(), result, succeeded };
}

/**
 * Records a batch's attempts and what follows from each: success, the next
 * retry on the schedule, or giving up. An attempt that failed after the secret
 * it was signed with was rotated away is retried at once with the new one (the
 * receiver may have refused it for that): the endpoint row is locked first, so
 * a rotation either comes before this and is seen here, or after and finds
 * these attempts recorded (rotateSecret).
 */
async function recordAttempts(ctx: Ctx, endpointId: string, attempts: Attempt[]): Promise<void> {
  if (attempts.length === 0) return;
  await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    await recordEndpointHealth(tx, endpointId, attempts, now);
    const [current] = await tx.db
      .select({ signingSecret: webhookEndpoints.signingSecret })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    const rows = attempts.map(({ delivery, secret, attemptedAt, finishedAt, result, succeeded }) => {
      const rotated = current !== undefined && current.signingSecret !== secret;
      const delay = succeeded ? null : rotated ? 0 : retryDelayMs(delivery.attemptCount + 1);
      return {
        id: newId("wha"),
        deliveryId: delivery.id,
        attemptedAt: attemptedAt.toISOString(),
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        responseExcerpt: result.responseExcerpt,
        error: result.error ?? (succeeded ? null : `receiver answered ${result.statusCode}`),
        attemptCount: delivery.attemptCount,
        status: succeeded ? "succeeded" : delay === null ? "failed" : "pending",
        nextAttemptAt: delay === null ? null : new Date((rotated ? now : finishedAt).getTime() + delay).toISOString(),
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
        status = x.status,
        next_attempt_at = x."nextAttemptAt"
      from jsonb_to_recordset(${json}) as x("deliveryId" text, "attemptCount" int, status text, "attemptedAt" timestamptz, "nextAttemptAt" timestamptz)
      -- As read, or not at all: a holder recording late (its lease taken over meanwhile) must not undo or reschedule
      -- what the new one recorded, nor revive a delivery given up. Its attempt itself is recorded all the same.
      where d.id = x."deliveryId" and d.status = 'pending' and d.attempt_count = x."attemptCount"`);
  });
}

/** A disabled endpoint gets nothing more: what it still had pending is given up. */
async function giveUpPending(ctx: Ctx, endpointId: string): Promise<void> {
  await ctx.db.execute(sql`
    update webhook_deliveries set status = 'failed', next_attempt_at = null
    where endpoint_id = ${endpointId} and status = 'pending'`);
}

/** When the endpoint's next pending delivery is due, or null when none is pending. */
async function nextDueAt(ctx: Ctx, endpointId: string): Promise<Date | null> {
  const [row] = await ctx.db.execute<{ at: string | null }>(sql`
    select (extract(epoch from next_attempt_at) * 1000)::bigint::text as at from webhook_deliveries
    where endpoint_id = ${endpointId} and status = 'pending' order by next_attempt_at limit 1`);
  return row?.at ? new Date(Number(row.at)) : null;
}
