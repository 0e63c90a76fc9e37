import "server-only";

import { durationToMs } from "inngest";

import type { Ctx } from "@/lib/context";
import type { MemoisedStep } from "@/lib/db/schema";

import type { Op } from "./call-function";
import type { Run } from "./claim-runs";
import { retryAfterMs, retryDelayMs } from "./retry-delay";

/**
 * Applies one op the SDK reported to the run: a step's result or final error memoised, a retry
 * scheduled with backoff, a sleep begun. Returns the run's changes, `wakeAt` saying when it is
 * called next; an op the executor does not support is "unsupported".
 */
export function applyOp(ctx: Ctx, run: Run, op: Op, retryAfter: string | null): Partial<Run> | "unsupported" {
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
