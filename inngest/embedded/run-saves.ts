import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { cachedPlansDb, type Executor } from "@/lib/db/client";
import { idArray } from "@/lib/db/id-array";

import type { Run } from "./claim-runs";

/** Rows written by one statement at most: a bound on its size, whatever the number of runs in hand. */
const MAX_BATCH = 500;

/** One run's save: the row as it is to be, and the lease it was last written under. */
interface Save {
  run: Run;
  next: Run;
  done: (saved: boolean) => void;
  failed: (error: unknown) => void;
}

/**
 * Progress of many runs written in one statement: the saves asked for while a statement is in
 * flight wait for it and go together in the next, so a batch of runs in hand costs one round trip
 * and one commit (one flush of the WAL to disk) rather than one per run. A save still waits for its
 * commit before the run goes on: a step's result is on disk before the next step runs.
 *
 * Each row is written whole, as the run in hand has it: under the lease nothing else writes it (a
 * waiting run, the only one an event changes, is never in hand), except a cancellation, which ends
 * it and so fails the lease check. A row is saved only while still pending under the lease this
 * executor last wrote; the others come back unsaved (false), each run's own answer.
 */
export function createRunSaves() {
  const queues = new Map<Executor, { saves: Save[]; writing: boolean }>();

  function save(ctx: Ctx, run: Run, next: Run): Promise<boolean> {
    let queue = queues.get(ctx.db);
    if (!queue) queues.set(ctx.db, (queue = { saves: [], writing: false }));
    const promise = new Promise<boolean>((done, failed) => queue.saves.push({ run, next, done, failed }));
    if (!queue.writing) void writeAll(ctx.db, queue);
    return promise;
  }

  async function writeAll(db: Executor, queue: { saves: Save[]; writing: boolean }): Promise<void> {
    queue.writing = true;
    // Saves asked for in the same turn of the event loop go in the first statement too.
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.saves.length > 0) {
      const batch = queue.saves.splice(0, MAX_BATCH);
      try {
        const saved = await write(db, batch);
        for (const s of batch) s.done(saved.has(s.run.id));
      } catch (error) {
        // One row the database refuses (a step's result it cannot store) must not fail the others:
        // each is written alone, and only its own save fails.
        if (batch.length === 1) batch[0]!.failed(error);
        else
          for (const s of batch) {
            await write(db, [s]).then(
              (saved) => s.done(saved.has(s.run.id)),
              (rowError: unknown) => s.failed(rowError),
            );
          }
      }
    }
    queue.writing = false;
    if (queues.get(db) === queue) queues.delete(db);
  }

  return { save };
}

async function write(db: Executor, batch: Save[]): Promise<Set<string>> {
  // Planned once per connection, not at every save (0.34 ms of planning per save, measured over bench:api's signups).
  const saved = await cachedPlansDb(db).execute<{ id: string }>(saveRunsSql(batch));
  return new Set(saved.map((row) => row.id));
}

/**
 * The statement that saves runs' progress, each row only while it is pending under the lease the
 * executor last wrote; it returns the ids it saved. Each row is reached by its id whatever the
 * table's size and whatever its statistics said when the statement was planned: the ids are given
 * as a list for the primary key beside the recordset. Joined with the recordset alone, a plan made
 * while the table was small hashed every pending run at each save (bench:executor, 20,000 runs due
 * at once: 4–7 ms a save, and 85–90 s for the runs instead of 11 s).
 */
export function saveRunsSql(batch: { run: Run; next: Run }[]): SQL {
  const rows = batch.map(({ run, next }) => ({
    id: run.id,
    held: run.leaseUntil?.toISOString() ?? null,
    status: next.status,
    steps: next.steps,
    step_order: next.stepOrder,
    attempt: next.attempt,
    wake_at: next.wakeAt.toISOString(),
    lease_until: next.leaseUntil?.toISOString() ?? null,
    wait_step: next.waitStep,
    wait_event: next.waitEvent,
    wait_key: next.waitKey,
    wait_match: next.waitMatch,
    result: next.result ?? null,
    error: next.error,
    updated_at: next.updatedAt.toISOString(),
  }));
  return sql`
    update workflow_runs w set
      status = v.status, steps = v.steps, step_order = v.step_order, attempt = v.attempt, wake_at = v.wake_at,
      lease_until = v.lease_until, wait_step = v.wait_step, wait_event = v.wait_event, wait_key = v.wait_key,
      wait_match = v.wait_match, result = v.result, error = v.error, updated_at = v.updated_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(
      id text, held timestamptz, status text, steps jsonb, step_order jsonb, attempt integer, wake_at timestamptz,
      lease_until timestamptz, wait_step text, wait_event text, wait_key text, wait_match jsonb, result jsonb,
      error text, updated_at timestamptz)
    where w.id = any(${idArray(rows.map((row) => row.id))}) and w.id = v.id and w.lease_until = v.held
      and w.status = 'pending'
    returning w.id`;
}
