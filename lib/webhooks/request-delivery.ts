import "server-only";

import { inArray, sql, type SQL } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { webhookEndpointDue } from "@/lib/events/workflow-events";

/**
 * Asks for each endpoint's delivery run, in the caller's transaction (the one
 * that queued deliveries or made them due).
 *
 * One run serves many transactions: it is named after the endpoint's
 * `delivery_wake`, so every transaction that reads the same value asks for
 * the same run (event id de-duplication). A run bumps the value before it
 * looks for due deliveries, under an exclusive lock that waits for the shared
 * one each asking transaction holds until it commits: a run named after the
 * value read either has not looked yet, and will see this transaction's
 * deliveries, or had moved the value on before it was read, and a new run is
 * asked for. No delivery is left without a run to make it.
 *
 * Advisory locks rather than row locks: a share lock on the endpoint row is
 * written into the row on every request, and a queue of them can starve the
 * run's update, where the lock manager queues the run fairly. The value is
 * read in a statement after the lock is held: under READ COMMITTED that
 * statement sees the bump of any run that held the exclusive lock before.
 * Whoever also locks the endpoint row takes the wake lock first.
 */
export async function requestDelivery(ctx: Ctx, endpointIds: string[]): Promise<void> {
  if (endpointIds.length === 0) return;
  await withTransaction(ctx, async (tx) => {
    await holdWakeLocks(tx, endpointIds);
    await askForRuns(tx, endpointIds);
  });
}

/** The shared wake lock on each endpoint, until the caller's transaction ends; taken before any read of `delivery_wake`. */
export async function holdWakeLocks(ctx: Ctx, endpointIds: string[]): Promise<void> {
  const ids = sql.join(
    endpointIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // In id order, as every transaction takes them: shared locks queued behind a run's exclusive one cannot then wait in a circle.
  await ctx.db.execute(
    sql`select pg_advisory_xact_lock_shared(${wakeLockKey(sql`e.id`)}) from (select unnest(array[${ids}]::text[]) as id order by 1) e`,
  );
}

/** `requestDelivery` once the caller holds the endpoints' wake locks: reads each `delivery_wake` (after the locks, in a statement of its own) and asks for the run it names. */
export async function askForRuns(ctx: Ctx, endpointIds: string[]): Promise<void> {
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id, wake: webhookEndpoints.deliveryWake })
    .from(webhookEndpoints)
    .where(inArray(webhookEndpoints.id, endpointIds));
  await emitEvents(
    ctx,
    endpoints.map((endpoint) => ({
      name: webhookEndpointDue.name,
      id: `webhooks:${endpoint.id}:${endpoint.wake}`,
      data: { endpointId: endpoint.id },
    })),
  );
}

/** Advisory locks in two-key form with this first key are endpoints' wake locks, apart from every single-key lock. */
const WAKE_LOCK_CLASS = 0x77686b;

/** The advisory lock key (both parts) of an endpoint's wake counter. */
export function wakeLockKey(endpointId: SQL): SQL {
  return sql`${WAKE_LOCK_CLASS}::int, hashtext(${endpointId})`;
}

/** Asks for an endpoint's delivery run at `at`, when its next retry is due; asking again for the same time starts nothing more. */
export async function requestDeliveryAt(ctx: Ctx, endpointId: string, at: Date): Promise<void> {
  await emitEvents(ctx, [
    {
      name: webhookEndpointDue.name,
      id: `webhooks:${endpointId}:at:${at.getTime()}`,
      data: { endpointId },
      ts: at.getTime(),
    },
  ]);
}

/** Deliveries this long overdue have lost the run that should have made them. */
const OVERDUE_MS = 5 * 60_000;

/**
 * The safety net: asks for a new delivery run for every enabled endpoint with
 * a delivery overdue by more than OVERDUE_MS (its run failed for good, or was
 * cancelled by an upgrade). Returns how many endpoints it woke.
 */
export async function wakeOverdueEndpoints(ctx: Ctx): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - OVERDUE_MS).toISOString();
  const overdue = await ctx.db.execute<{ id: string }>(sql`
    select e.id from webhook_endpoints e
    where e.enabled and exists (
      select 1 from webhook_deliveries d
      where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at < ${cutoff}::timestamptz)`);
  if (overdue.length > 0) {
    const ids = overdue.map((row) => row.id);
    await withTransaction(ctx, async (tx) => {
      // A fresh name: the run named after the current value may have ended without looking (cancelled, failed).
      await tx.db
        .update(webhookEndpoints)
        .set({ deliveryWake: sql`${webhookEndpoints.deliveryWake} + 1` })
        .where(inArray(webhookEndpoints.id, ids));
      await askForRuns(tx, ids);
    });
  }
  return overdue.length;
}
