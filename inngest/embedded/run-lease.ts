import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workflowRuns } from "@/lib/db/schema";
import { logger } from "@/lib/log/logger";

import type { Run } from "./claim-runs";
import { logRun } from "./run-log";
import { createRunSaves } from "./run-saves";

/** The longest a step keeps its run's lease renewed: past it the step is taken for stuck. */
const MAX_STEP_MS = 15 * 60_000;

/** The run's row, while it is still pending under the lease this executor last wrote. */
function underOurLease(run: Run) {
  return and(
    eq(workflowRuns.id, run.id),
    eq(workflowRuns.leaseUntil, run.leaseUntil!),
    eq(workflowRuns.status, "pending"),
  );
}

/**
 * The leases of an executor's runs in hand: progress is saved only under the lease, the lease is
 * renewed while a step runs, and a run that goes on at once is handed back on shutdown.
 */
export function createRunLeases(leaseMs: number) {
  const saves = createRunSaves();
  /**
   * Lease writes of one run, one after another: each compares the lease it last wrote, so a renewal
   * racing a save would make the save look like a lost run. Chained per run, they never race.
   */
  const leaseWrites = new WeakMap<Run, Promise<unknown>>();
  /** When each run in hand was claimed or last saved (performance.now()): the start of its current step. */
  const lastSaved = new WeakMap<Run, number>();
  function leaseWrite<T>(run: Run, write: () => Promise<T>): Promise<T> {
    const next = (leaseWrites.get(run) ?? Promise.resolve()).then(write);
    leaseWrites.set(
      run,
      next.catch(() => undefined),
    );
    return next;
  }

  /**
   * Saves progress only while this executor still holds the lease; false means
   * it lost the run. The saves of runs in hand go to the database together
   * (run-saves.ts): one statement and one commit for many runs. A run that goes on at once keeps the lease; one that
   * waits (sleep, backoff) or has ended releases it.
   */
  function save(ctx: Ctx, run: Run, changes: Partial<Run>): Promise<boolean> {
    return leaseWrite(run, () => saveNow(ctx, run, changes));
  }

  async function saveNow(ctx: Ctx, run: Run, changes: Partial<Run>): Promise<boolean> {
    const now = ctx.clock.now();
    const continuing =
      (changes.status ?? "pending") === "pending" && (changes.wakeAt ?? run.wakeAt).getTime() <= now.getTime();
    const leaseUntil = continuing ? new Date(now.getTime() + leaseMs) : null;
    const next: Run = { ...run, ...changes, leaseUntil, updatedAt: now };
    if (!(await saves.save(ctx, run, next))) return false;
    Object.assign(run, next);
    lastSaved.set(run, performance.now());
    return true;
  }

  /**
   * Extends the lease of a run in hand, every third of the lease: a step that takes longer than the
   * lease (a big batch to a slow relay) must not look abandoned and be taken by another executor.
   */
  function renewLease(ctx: Ctx, run: Run): Promise<void> {
    return leaseWrite(run, async () => {
      if (!run.leaseUntil) return;
      // A step stuck past MAX_STEP_MS (a peer that never answers) lets its lease lapse, so another
      // executor can take the run on rather than have it held until this process dies.
      if (performance.now() - (lastSaved.get(run) ?? 0) > MAX_STEP_MS) return;
      const leaseUntil = new Date(ctx.clock.now().getTime() + leaseMs);
      const renewed = await ctx.db
        .update(workflowRuns)
        .set({ leaseUntil })
        .where(underOurLease(run))
        .returning({ id: workflowRuns.id });
      if (renewed.length > 0) run.leaseUntil = leaseUntil;
    });
  }

  /** Renews the lease of a run just taken in hand until the returned function is called. */
  function keepRenewed(ctx: Ctx, run: Run): () => void {
    lastSaved.set(run, performance.now());
    const heartbeat = setInterval(() => {
      renewLease(ctx, run).catch((error: unknown) =>
        logger().warn({ err: error, run_id: run.id }, "lease renewal failed"),
      );
    }, leaseMs / 3);
    heartbeat.unref();
    return () => clearInterval(heartbeat);
  }

  /**
   * Gives up the lease of a run that goes on at once, its finished steps saved: another executor (or
   * this one after a restart) takes it at the next poll instead of waiting for the lease to lapse.
   */
  async function handBack(ctx: Ctx, run: Run): Promise<void> {
    const handed = await leaseWrite(run, () =>
      ctx.db
        .update(workflowRuns)
        .set({ leaseUntil: null, updatedAt: ctx.clock.now() })
        .where(underOurLease(run))
        .returning({ id: workflowRuns.id }),
    );
    run.leaseUntil = null;
    if (handed.length > 0) logRun(run, "handed back");
  }

  return { save, keepRenewed, handBack };
}
