import "server-only";

import { durationToMs } from "inngest";

import type { Ctx } from "@/lib/context";
import type { MemoisedStep } from "@/lib/db/schema";

import type { Op } from "./call-function";
import type { Run } from "./claim-runs";
import { retryAfterMs, retryDelayMs } from "./retry-delay";
import { readWaitMatch } from "./wait-match";

/** Why the executor cannot go on with an op: the run fails with this. */
export interface Unsupported {
  unsupported: string;
}

/**
 * Applies one op the SDK reported to the run: a step's result or final error memoised, a retry
 * scheduled with backoff, a sleep or a wait for an event begun. Returns the run's changes, `wakeAt`
 * saying when it is called next; an op the executor does not support is `{ unsupported }`.
 */
export function applyOp(ctx: Ctx, run: Run, op: Op, retryAfter: string | null): Partial<Run> | Unsupported {
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
      const wakeAt = timeFrom(op.name ?? "0s", now);
      // The run is not called again before wakeAt, so the sleep can be memoised as done now.
      return { ...memoise({ type: "data", data: null }), wakeAt };
    }
    case "WaitForEvent": {
      const wait = readWaitMatch(op.name ?? "", op.opts?.if, run.event);
      if ("unsupported" in wait) return wait;
      const timeout = timeFrom(op.opts?.timeout ?? "0s", now);
      // Already timed out: resolved now, as Inngest resolves a wait whose timeout has passed.
      if (timeout.getTime() <= now) return { ...memoise({ type: "data", data: null }), wakeAt: new Date(now) };
      // Begun when this is saved: from then on an arriving event finds it (resumeWaitingRuns); the claim
      // that takes the run at `wakeAt` resolves it with null (claim-runs.ts).
      return { waitStep: op.id, waitEvent: wait.event, waitKey: wait.key, waitMatch: wait.match, wakeAt: timeout };
    }
    default:
      return { unsupported: `step tool not supported by the embedded executor: ${op.op}` };
  }
}

/**
 * The steps a checkpoint saves, applied in turn, with each one's run and changes (for its log line).
 * A checkpoint carries the results of steps run; any other op is unsupported here.
 */
export function applyCheckpoint(
  ctx: Ctx,
  run: Run,
  ops: Op[],
): { changes: Partial<Run>; applied: [Run, Op, Partial<Run>][] } | Unsupported {
  let changes: Partial<Run> = {};
  const applied: [Run, Op, Partial<Run>][] = [];
  for (const op of ops) {
    if (op.op !== "StepRun") return { unsupported: `a checkpoint of ${op.op}` };
    const current = { ...run, ...changes };
    const change = applyOp(ctx, current, op, null) as Partial<Run>;
    applied.push([current, op, change]);
    changes = { ...changes, ...change };
  }
  return { changes, applied };
}

/** A sleep's or a timeout's end: a date the SDK wrote as ISO 8601, or a duration ("1h30m") from now. */
function timeFrom(value: string, now: number): Date {
  return /^\d{4}-\d\d-\d\dT/.test(value) ? new Date(value) : new Date(now + durationToMs(value as "1s"));
}
