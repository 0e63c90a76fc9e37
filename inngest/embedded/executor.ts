import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { durationToMs, type Inngest, type InngestFunction } from "inngest";
import { serve } from "inngest/edge";

import type { Ctx } from "@/lib/context";
import { countersDb } from "@/lib/db/client";
import { workflowRuns, type MemoisedStep } from "@/lib/db/schema";
import { logger } from "@/lib/log/logger";

import { fireDueCrons, scheduleCrons } from "./crons";
import { enqueueEvents, type OutgoingEvent } from "./enqueue";
import { registerFunctions, type RegisteredFunction } from "./registry";

type Run = typeof workflowRuns.$inferSelect;

interface Op {
  op: string;
  id: string;
  name?: string;
  /** The step's own id, as written in the function (`id` is its hash). */
  userland?: { id: string };
  data?: unknown;
  error?: { name: string; message: string; stack?: string };
}

/** How a step's call ended: its result memoised, a retry planned, given up (the function sees the error), a sleep begun. */
type StepOutcome = "ok" | "error" | "failed" | "sleep" | "unsupported";

const STEP_OUTCOMES: Record<string, StepOutcome> = {
  StepRun: "ok",
  StepError: "error",
  StepFailed: "failed",
  Sleep: "sleep",
};

export interface ExecutorOptions {
  client: Inngest.Any;
  functions: InngestFunction.Any[];
  /** How long a claimed run stays with one executor; after that (a crash) another takes it over. */
  leaseMs?: number;
  pollMs?: number;
  /** Runs worked on at once. A run waiting on the network (a webhook receiver, a provider) holds one. */
  workers?: number;
}

const MAX_BACKOFF_MS = 10 * 60_000;

/** The longest a step keeps its run's lease renewed: past it the step is taken for stuck. */
const MAX_STEP_MS = 15 * 60_000;

/** 1 s, 2 s, 4 s … up to 10 min, with up to 10 % jitter. */
export function retryDelayMs(attempt: number): number {
  const base = Math.min(1000 * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base * (1 + Math.random() * 0.1));
}

/**
 * Runs Inngest functions without an Inngest server. Each run lives in
 * workflow_runs; the executor claims a due run, calls the SDK's own serve
 * handler in-process with the run's memoised steps (the request an Inngest
 * server would send), stores what the SDK reports (a step's result, a sleep,
 * a retriable error) and calls again until the function returns. Replay
 * semantics are the SDK's own: memoised steps are not run again. Only the
 * step tools our functions use are supported; any other op fails the run.
 */
export function createEmbeddedExecutor(options: ExecutorOptions) {
  const registry = registerFunctions(options.client, options.functions);
  const bySlug = new Map(registry.map((r) => [r.slug, r]));
  const handler = serve({ client: options.client, functions: options.functions });
  const leaseMs = options.leaseMs ?? 60_000;
  const workers = options.workers ?? 1;
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<number> | undefined;
  /** Set by stop(): runs in hand finish the step they are in and are handed back; nothing new is claimed. */
  let stopping = false;
  /** Concurrency keys of the runs this executor is working on; claims are made one at a time. */
  const keysInHand = new Set<string>();
  let claiming: Promise<unknown> = Promise.resolve();

  async function invoke(run: Run, registered: RegisteredFunction, stepId = "step", disableImmediate = false) {
    const body = {
      event: run.event,
      events: [run.event],
      steps: run.steps,
      ctx: {
        run_id: run.id,
        attempt: run.attempt,
        max_attempts: registered.maxAttempts,
        disable_immediate_execution: disableImmediate,
        use_api: false,
        stack: { stack: run.stepOrder, current: run.stepOrder.length },
      },
      version: 2,
    };
    const url = `http://embedded.local/api/inngest?fnId=${encodeURIComponent(registered.slug)}&stepId=${encodeURIComponent(stepId)}`;
    const response = await handler(
      new Request(url, {
        method: "POST",
        // No x-inngest-req-version header: the SDK reads the version from the body as well, and parsed the
        // header's twice per call, each time through a zod union that builds an error per literal it tries.
        headers: { host: "embedded.local", "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return {
      status: response.status,
      retriable: response.headers.get("x-inngest-no-retry") !== "true",
      retryAfter: response.headers.get("x-inngest-retry-after"),
      body: text ? (JSON.parse(text) as unknown) : null,
    };
  }

  /**
   * Claims up to `limit` due runs in one statement. Skips rows another
   * executor holds, and runs whose concurrency key is taken: by a run in this
   * executor's hands or by a leased run elsewhere. Of due runs sharing a key
   * only the oldest is taken, and claims are serialised within the executor,
   * so same-key runs go one at a time, oldest first.
   */
  function claim(ctx: Ctx, limit: number): Promise<Run[]> {
    const claimed = claiming.then(() => claimBatch(ctx, limit));
    claiming = claimed.catch(() => undefined);
    return claimed;
  }

  async function claimBatch(ctx: Ctx, limit: number): Promise<Run[]> {
    const now = ctx.clock.now().toISOString();
    const leaseUntil = new Date(ctx.clock.now().getTime() + leaseMs);
    const notInHand = keysInHand.size
      ? sql`r.concurrency_key not in (${sql.join(
          [...keysInHand].map((key) => sql`${key}`),
          sql`, `,
        )})`
      : sql`true`;
    // Raw SQL with aliases: in a one-table statement Drizzle renders columns bare, which would bind to the inner tables.
    // A lease lost to a database crash only makes the run claimable again: no need to wait for the disk,
    // so the claim, one statement, goes through the counters' pool and needs no transaction of its own.
    const claimed = await countersDb(ctx.db)
      .update(workflowRuns)
      .set({ leaseUntil })
      .where(
        sql`"workflow_runs"."id" in (
          select id from (
            select distinct on (coalesce(c.concurrency_key, c.id)) c.id, c.wake_at from (
              select r.id, r.concurrency_key, r.wake_at from workflow_runs r
              where r.status = 'pending' and r.wake_at <= ${now}::timestamptz
                and (r.lease_until is null or r.lease_until < ${now}::timestamptz)
                and (r.concurrency_key is null or (${notInHand} and not exists (
                  select 1 from workflow_runs held
                  where held.concurrency_key = r.concurrency_key and held.status = 'pending' and held.lease_until >= ${now}::timestamptz)))
              order by r.wake_at, r.id
              limit ${limit * 4 + 16}
              for update skip locked
            ) c
            order by coalesce(c.concurrency_key, c.id), c.wake_at, c.id
          ) firsts
          order by wake_at, id
          limit ${limit})`,
      )
      .returning();
    for (const run of claimed) if (run.concurrencyKey) keysInHand.add(run.concurrencyKey);
    return claimed.sort((a, b) => a.wakeAt.getTime() - b.wakeAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  /**
   * Saves progress only while this executor still holds the lease; false means
   * it lost the run. A run that goes on at once keeps the lease; one that
   * waits (sleep, backoff) or has ended releases it.
   */
  function save(ctx: Ctx, run: Run, changes: Partial<Run>): Promise<boolean> {
    return leaseWrite(run, () => saveNow(ctx, run, changes));
  }

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
        .where(
          and(
            eq(workflowRuns.id, run.id),
            eq(workflowRuns.leaseUntil, run.leaseUntil),
            eq(workflowRuns.status, "pending"),
          ),
        )
        .returning({ id: workflowRuns.id });
      if (renewed.length > 0) run.leaseUntil = leaseUntil;
    });
  }

  async function saveNow(ctx: Ctx, run: Run, changes: Partial<Run>): Promise<boolean> {
    const now = ctx.clock.now();
    const continuing =
      (changes.status ?? "pending") === "pending" && (changes.wakeAt ?? run.wakeAt).getTime() <= now.getTime();
    const leaseUntil = continuing ? new Date(now.getTime() + leaseMs) : null;
    const saved = await ctx.db
      .update(workflowRuns)
      .set({ ...changes, leaseUntil, updatedAt: now })
      .where(
        and(
          eq(workflowRuns.id, run.id),
          eq(workflowRuns.leaseUntil, run.leaseUntil!),
          eq(workflowRuns.status, "pending"),
        ),
      )
      .returning({ id: workflowRuns.id });
    if (saved.length === 0) return false;
    Object.assign(run, changes, { leaseUntil });
    lastSaved.set(run, performance.now());
    return true;
  }

  /** Applies one op the SDK reported; returns when the run should next be called (null: at once). */
  function applyOp(ctx: Ctx, run: Run, op: Op, retryAfter: string | null): Partial<Run> | "unsupported" {
    const now = ctx.clock.now().getTime();
    const memoise = (step: MemoisedStep) => ({
      steps: { ...run.steps, [op.id]: step },
      stepOrder: [...run.stepOrder, op.id],
      attempt: 0,
    });
    switch (op.op) {
      case "StepRun":
        return { ...memoise({ type: "data", data: op.data ?? null }), wakeAt: new Date(now) };
      case "StepFailed":
        return {
          ...memoise({ type: "error", error: op.error ?? { name: "Error", message: "step failed" } }),
          wakeAt: new Date(now),
        };
      case "StepError": {
        const attempt = run.attempt + 1;
        const delay = retryAfter ? retryAfterMs(retryAfter, now) : retryDelayMs(attempt);
        return { attempt, wakeAt: new Date(now + delay), error: op.error?.message ?? null };
      }
      case "Sleep": {
        const name = op.name ?? "0s";
        const wakeAt = /^\d{4}-\d\d-\d\dT/.test(name) ? new Date(name) : new Date(now + durationToMs(name as "1s"));
        // The run is not called again before wakeAt, so the sleep can be memoised as done now.
        return { ...memoise({ type: "data", data: null }), wakeAt };
      }
      default:
        return "unsupported";
    }
  }

  /** Calls the function until it finishes or has to wait (sleep, retry backoff). */
  async function advance(ctx: Ctx, run: Run): Promise<void> {
    const registered = bySlug.get(run.functionId);
    if (!registered) {
      await save(ctx, run, { status: "failed", error: `no function ${run.functionId} is registered` });
      return;
    }
    for (;;) {
      const started = performance.now();
      const response = await invoke(run, registered);
      if (response.status === 200) {
        if (await save(ctx, run, { status: "completed", result: response.body ?? null, error: null }))
          logRun(run, "completed");
        return;
      }
      if (response.status !== 206) {
        const message = describeError(response.body);
        const attempt = run.attempt + 1;
        const finished = !response.retriable || attempt >= registered.maxAttempts;
        const now = ctx.clock.now().getTime();
        logRun(run, finished ? "failed" : "retry", response.body);
        await save(
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
              const op = ((await invoke(run, registered, planned.id, true)).body as Op[])[0]!;
              return { op, ms: performance.now() - plannedStarted };
            }),
          )
        : ops.map((op) => ({ op, ms: calledMs }));
      let changes: Partial<Run> = {};
      for (const { op, ms } of performed) {
        const current = { ...run, ...changes } as Run;
        const applied = applyOp(ctx, current, op, response.retryAfter);
        logStep(current, op, ms, applied);
        if (applied === "unsupported") {
          await save(ctx, run, {
            status: "failed",
            error: `step tool not supported by the embedded executor: ${op.op}`,
          });
          return;
        }
        changes = { ...changes, ...applied };
      }
      if (!(await save(ctx, run, changes))) return;
      if (run.wakeAt.getTime() > ctx.clock.now().getTime()) return;
      if (stopping) {
        await handBack(ctx, run);
        return;
      }
    }
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
        .where(
          and(
            eq(workflowRuns.id, run.id),
            eq(workflowRuns.leaseUntil, run.leaseUntil!),
            eq(workflowRuns.status, "pending"),
          ),
        )
        .returning({ id: workflowRuns.id }),
    );
    run.leaseUntil = null;
    if (handed.length > 0) logRun(run, "handed back");
  }

  async function work(ctx: Ctx, run: Run): Promise<void> {
    lastSaved.set(run, performance.now());
    const heartbeat = setInterval(() => {
      renewLease(ctx, run).catch((error: unknown) =>
        logger().warn({ err: error, run_id: run.id }, "lease renewal failed"),
      );
    }, leaseMs / 3);
    heartbeat.unref();
    try {
      await advance(ctx, run);
    } catch (error) {
      // A fault of ours, not the function's: leave the run to be retried when the lease expires.
      logger().error({ err: error, function_id: run.functionId, run_id: run.id }, "embedded executor fault");
    } finally {
      clearInterval(heartbeat);
      if (run.concurrencyKey) keysInHand.delete(run.concurrencyKey);
    }
  }

  /**
   * Runs everything due now, `workers` runs at a time, claiming more as runs
   * finish (a finished run can free a concurrency key); resolves with how
   * many runs were worked on.
   */
  async function runDue(ctx: Ctx): Promise<number> {
    await fireDueCrons(ctx, registry);
    let count = 0;
    let finished = 0;
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      const finishedBefore = finished;
      const claimed = !stopping && inFlight.size < workers ? await claim(ctx, workers - inFlight.size) : [];
      for (const run of claimed) {
        count++;
        const working: Promise<void> = work(ctx, run).finally(() => {
          finished++;
          inFlight.delete(working);
        });
        inFlight.add(working);
      }
      if (claimed.length > 0 && inFlight.size < workers) continue;
      // A run that finished while the claim was made may have freed a key the claim still saw taken.
      if (finished !== finishedBefore) continue;
      if (inFlight.size === 0) return count;
      await Promise.race(inFlight);
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

/** One line per step call: which step of which run, its attempt (0 the first), the time it took and how it ended. */
function logStep(run: Run, op: Op, ms: number, applied: Partial<Run> | "unsupported"): void {
  const outcome: StepOutcome = applied === "unsupported" ? "unsupported" : (STEP_OUTCOMES[op.op] ?? "unsupported");
  const line = {
    function_id: run.functionId,
    run_id: run.id,
    step: op.userland?.id ?? op.id,
    attempt: run.attempt,
    duration_ms: Math.round(ms),
    outcome,
    // When a sleep ends, or the retry is due.
    ...(applied !== "unsupported" && (outcome === "sleep" || outcome === "error")
      ? { wake_at: applied.wakeAt?.toISOString() }
      : {}),
    ...(op.error ? { err: revive(op.error) } : {}),
    ...(outcome === "unsupported" ? { op: op.op } : {}),
  };
  logger()[outcome === "ok" || outcome === "sleep" ? "info" : outcome === "error" ? "warn" : "error"](
    line,
    "workflow step",
  );
}

/**
 * One line when a function returns, or throws outside its steps (retried, or failed for good). A step's
 * error that the function let through was logged with its stack by its step: here only its message.
 */
function logRun(run: Run, outcome: "completed" | "retry" | "failed" | "handed back", error?: unknown): void {
  const stack = (error as { stack?: unknown } | undefined)?.stack;
  const fromStep =
    stack !== undefined && Object.values(run.steps).some((step) => step.type === "error" && step.error.stack === stack);
  const line = {
    function_id: run.functionId,
    run_id: run.id,
    attempt: run.attempt,
    outcome,
    ...(error === undefined ? {} : fromStep ? { error: describeError(error) } : { err: revive(error) }),
  };
  logger()[outcome === "completed" || outcome === "handed back" ? "info" : outcome === "retry" ? "warn" : "error"](
    line,
    "workflow run",
  );
}

/** The SDK's serialised error as an Error again, so that `err` reads as in any other line: type, message, stack. */
function revive(error: unknown): unknown {
  if (!error || typeof error !== "object" || !("message" in error)) return error;
  const { name, message, stack } = error as { name?: unknown; message: unknown; stack?: unknown };
  const revived = new Error(String(message));
  revived.name = typeof name === "string" ? name : "Error";
  revived.stack = typeof stack === "string" ? stack : `${revived.name}: ${revived.message}`;
  return revived;
}

function retryAfterMs(value: string, now: number): number {
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  return Math.max(0, new Date(value).getTime() - now);
}

function describeError(body: unknown): string {
  if (body && typeof body === "object" && "message" in body) return String((body as { message: unknown }).message);
  return JSON.stringify(body);
}
