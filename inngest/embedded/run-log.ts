import "server-only";

import { logger } from "@/lib/log/logger";

import type { Unsupported } from "./apply-op";
import type { Op } from "./call-function";
import type { Run } from "./claim-runs";

/**
 * How a step's call ended: its result memoised, a retry planned, given up (the function sees the
 * error), a sleep or a wait for an event begun.
 */
type StepOutcome = "ok" | "error" | "failed" | "sleep" | "wait" | "unsupported";

const STEP_OUTCOMES: Record<string, StepOutcome> = {
  StepRun: "ok",
  StepError: "error",
  StepFailed: "failed",
  Sleep: "sleep",
  WaitForEvent: "wait",
};

/** One line per step call: which step of which run, its attempt (0 the first), the time it took and how it ended. */
export function logStep(run: Run, op: Op, ms: number, applied: Partial<Run> | Unsupported): void {
  const unsupported = "unsupported" in applied;
  const outcome: StepOutcome = unsupported ? "unsupported" : (STEP_OUTCOMES[op.op] ?? "unsupported");
  const line = {
    function_id: run.functionId,
    run_id: run.id,
    step: op.userland?.id ?? op.id,
    attempt: run.attempt,
    duration_ms: Math.round(ms),
    outcome,
    // When a sleep ends, the retry is due, or the wait times out (with the event it waits for).
    ...(!unsupported && (outcome === "sleep" || outcome === "error" || outcome === "wait")
      ? { wake_at: applied.wakeAt?.toISOString() }
      : {}),
    ...(!unsupported && applied.waitEvent ? { wait_event: applied.waitEvent } : {}),
    ...(op.error ? { err: revive(op.error) } : {}),
    ...(unsupported ? { op: op.op, reason: applied.unsupported } : {}),
  };
  logger()[
    outcome === "ok" || outcome === "sleep" || outcome === "wait" ? "info" : outcome === "error" ? "warn" : "error"
  ](line, "workflow step");
}

/**
 * One line when a function returns, or throws outside its steps (retried, or failed for good). A step's
 * error that the function let through was logged with its stack by its step: here only its message.
 */
export function logRun(run: Run, outcome: "completed" | "retry" | "failed" | "handed back", error?: unknown): void {
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

/** The message of an error the SDK reported, or the whole body when it carries none. */
export function describeError(body: unknown): string {
  if (body && typeof body === "object" && "message" in body) return String((body as { message: unknown }).message);
  return JSON.stringify(body);
}
