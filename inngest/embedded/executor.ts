import "server-only";

import type { Inngest, InngestFunction } from "inngest";

import type { Ctx } from "@/lib/context";
import { logger } from "@/lib/log/logger";

import { applyCheckpoint, applyOp } from "./apply-op";
import { createFunctionCaller, haltCall, type Op } from "./call-function";
import { createRunClaims, type Run } from "./claim-runs";
import { fireDueCrons, scheduleCrons } from "./crons";
import { enqueueEvents, type OutgoingEvent } from "./enqueue";
import { registerFunctions } from "./registry";
import { retryDelayMs } from "./retry-delay";
import { createRunLeases } from "./run-lease";
import { describeError, logRun, logStep } from "./run-log";

export interface ExecutorOptions {
  client: Inngest.Any;
  functions: InngestFunction.Any[];
  /** How long a claimed run stays with one executor; after that (a crash) another takes it over. */
  leaseMs?: number;
  pollMs?: number;
  /** Runs worked on at once. A run waiting on the network (a webhook receiver, a provider) holds one. */
  workers?: number;
}

/**
 * Runs Inngest functions without an Inngest server. Each run lives in
 * workflow_runs; the executor claims a due run, calls the SDK's own execution
 * engine in-process with the run's memoised steps (what an Inngest server
 * would send), stores what the SDK reports (a step's result, a sleep, a
 * retriable error, a wait for an event) and calls again until the function
 * returns. Replay semantics are the SDK's own: memoised steps are not run
 * again. step.run, sleep, sleepUntil, sendEvent and waitForEvent are
 * supported; any other op fails the run.
 */
export function createEmbeddedExecutor(options: ExecutorOptions) {
  const registry = registerFunctions(options.client, options.functions);
  const bySlug = new Map(registry.map((r) => [r.slug, r]));
  const invoke = createFunctionCaller(options);
  const leaseMs = options.leaseMs ?? 60_000;
  const workers = options.workers ?? 1;
  const claims = createRunClaims(leaseMs);
  const leases = createRunLeases(leaseMs);
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<number> | undefined;
  /** Set by stop(): runs in hand finish the step they are in and are handed back; nothing new is claimed. */
  let stopping = false;

  /** Calls the function until it finishes or has to wait (sleep, retry backoff). */
  async function advance(ctx: Ctx, run: Run): Promise<void> {
    const registered = bySlug.get(run.functionId);
    if (!registered) {
      await leases.save(ctx, run, { status: "failed", error: `no function ${run.functionId} is registered` });
      return;
    }
    for (;;) {
      let started = performance.now();
      /** Set when a checkpoint ended the call: the run is no longer ours, or is to be handed back. */
      let halted: "lost" | "stopping" | null = null;
      const checkpoint = async (ops: Op[]) => {
        if (halted) throw haltCall(`the call was ended: ${halted}`);
        if (ops.length === 0) return;
        const saved = applyCheckpoint(ctx, run, ops);
        // Left to the call's answer, which reports the steps as a call without checkpoints does.
        if ("unsupported" in saved) throw new Error(saved.unsupported);
        const { changes, applied } = saved;
        if (!(await leases.save(ctx, run, changes))) {
          halted = "lost";
          throw haltCall("the run's lease was lost");
        }
        for (const [current, op, change] of applied) logStep(current, op, performance.now() - started, change);
        started = performance.now();
        if (stopping) {
          halted = "stopping";
          throw haltCall("the executor is stopping");
        }
      };
      const response = await invoke(run, registered, { checkpoint });
      if (halted === "lost") return;
      if (halted === "stopping") {
        await leases.handBack(ctx, run);
        return;
      }
      if (response.status === 200) {
        if (await leases.save(ctx, run, { status: "completed", result: response.body ?? null, error: null }))
          logRun(run, "completed");
        return;
      }
      if (response.status !== 206) {
        const message = describeError(response.body);
        const attempt = run.attempt + 1;
        const finished = !response.retriable || attempt >= registered.maxAttempts;
        const now = ctx.clock.now().getTime();
        logRun(run, finished ? "failed" : "retry", response.body);
        await leases.save(
          ctx,
          run,
          finished
            ? { status: "failed", error: message }
            : { attempt, error: message, wakeAt: new Date(now + retryDelayMs(attempt)) },
        );
        return;
      }
      const ops = response.body as Op[];
      const calledMs = performance.now() - started;
      // Parallel steps come back planned: run each on its own, then carry on.
      const performed = ops.every((op) => op.op === "StepPlanned")
        ? await Promise.all(
            ops.map(async (planned) => {
              const plannedStarted = performance.now();
              const op = ((await invoke(run, registered, { plannedStep: planned.id })).body as Op[])[0]!;
              return { op, ms: performance.now() - plannedStarted };
            }),
          )
        : ops.map((op) => ({ op, ms: calledMs }));
      // With checkpoints, the function's return comes as an op after the steps not yet saved (if any).
      const returned = performed.find(({ op }) => op.op === "RunComplete")?.op;
      let changes: Partial<Run> = {};
      // A run keeps one wait and one wake time: a wait beside other steps (Promise.all) would lose one.
      const waitInParallel = performed.length > 1 && performed.some(({ op }) => op.op === "WaitForEvent");
      for (const { op, ms } of performed) {
        if (op === returned) continue;
        const current = { ...run, ...changes } as Run;
        const applied = waitInParallel
          ? { unsupported: "step.waitForEvent in parallel with other steps" }
          : applyOp(ctx, current, op, response.retryAfter);
        logStep(current, op, ms, applied);
        if ("unsupported" in applied) {
          await leases.save(ctx, run, { status: "failed", error: applied.unsupported });
          return;
        }
        changes = { ...changes, ...applied };
      }
      if (returned) {
        if (
          await leases.save(ctx, run, { ...changes, status: "completed", result: returned.data ?? null, error: null })
        )
          logRun(run, "completed");
        return;
      }
      if (!(await leases.save(ctx, run, changes))) return;
      if (run.wakeAt.getTime() > ctx.clock.now().getTime()) return;
      if (stopping) {
        await leases.handBack(ctx, run);
        return;
      }
    }
  }

  /** Works on a run taken in hand; `stopRenewing` ends the renewal of its lease begun when it was claimed. */
  async function work(ctx: Ctx, run: Run, stopRenewing: () => void): Promise<void> {
    try {
      await advance(ctx, run);
    } catch (error) {
      // A fault of ours, not the function's: leave the run to be retried when the lease expires.
      logger().error({ err: error, function_id: run.functionId, run_id: run.id }, "embedded executor fault");
    } finally {
      stopRenewing();
      claims.letGo(run);
    }
  }

  /**
   * Runs everything due now, `workers` runs at a time, claiming more as runs
   * finish (a finished run can free a concurrency key); resolves with how
   * many runs were worked on. Claims are made a batch at a time: up to
   * `workers` runs wait in hand, leased and their leases renewed, for a worker
   * to free up, and a claim is made when a batch's room is free, so that one
   * claim statement serves many runs rather than one.
   */
  async function runDue(ctx: Ctx): Promise<number> {
    await fireDueCrons(ctx, registry);
    let count = 0;
    let finished = 0;
    let inFlight = 0;
    // Resolved when a run in hand finishes: one promise for all of them, not a race over each (with
    // hundreds of runs in hand, a race per finished run would attach hundreds of callbacks each time).
    let runFinished: () => void = () => {};
    const waiting: { run: Run; stopRenewing: () => void }[] = [];
    const startWaiting = () => {
      while (inFlight < workers && waiting.length > 0) {
        const { run, stopRenewing } = waiting.shift()!;
        inFlight++;
        void work(ctx, run, stopRenewing).finally(() => {
          finished++;
          inFlight--;
          runFinished();
        });
      }
    };
    for (;;) {
      if (stopping) {
        // Claimed but not begun: handed back, for another executor (or this one after a restart) to take at once.
        for (const { run, stopRenewing } of waiting.splice(0)) {
          stopRenewing();
          await leases.handBack(ctx, run).finally(() => claims.letGo(run));
        }
      }
      startWaiting();
      const finishedBefore = finished;
      const room = 2 * workers - inFlight - waiting.length;
      const idle = inFlight === 0 && waiting.length === 0;
      const claimed = !stopping && (room >= workers || idle) ? await claims.claim(ctx, room) : [];
      for (const run of claimed) {
        count++;
        waiting.push({ run, stopRenewing: leases.keepRenewed(ctx, run) });
      }
      startWaiting();
      // A full batch: more may be due.
      if (claimed.length > 0 && claimed.length === room) continue;
      // A run that finished while the claim was made may have freed a key the claim still saw taken.
      if (finished !== finishedBefore && (room >= workers || idle)) continue;
      if (inFlight === 0 && waiting.length === 0) return count;
      await new Promise<void>((resolve) => (runFinished = resolve));
    }
  }

  return {
    registry,
    enqueue: (ctx: Ctx, events: readonly OutgoingEvent[]) => enqueueEvents(ctx, registry, events),
    runDue,
    /** Polls for due runs until stop(); a restart picks up every unfinished run from the database. */
    async start(ctx: Ctx, pollMs = options.pollMs ?? 250) {
      stopping = false;
      await scheduleCrons(ctx, registry);
      const tick = () => {
        draining ??= runDue(ctx).finally(() => (draining = undefined));
      };
      timer = setInterval(tick, pollMs);
      timer.unref();
      tick();
    },
    /** For shutdown (SIGTERM): each run in hand finishes its current step and is handed back; resolves when all are. */
    async stop() {
      stopping = true;
      clearInterval(timer);
      await draining;
    },
  };
}

export type EmbeddedExecutor = ReturnType<typeof createEmbeddedExecutor>;
