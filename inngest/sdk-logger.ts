import type { Logger as InngestLogger } from "inngest";

import { logger } from "@/lib/log/logger";
import { workflowsAreEmbedded } from "@/lib/runtime/workflow-mode";

// The executor writes each step's and function's error itself, with function, run, step and attempt:
// embedded, the SDK's copies of those errors would log each stack twice.
const WRITTEN_BY_THE_EXECUTOR = new Set(["Inngest step error", "Inngest function error"]);

type Level = "info" | "warn" | "error" | "debug";

/**
 * The Inngest SDK's logger (its own messages, and `ctx.logger` in functions): JSON lines through
 * lib/log like every other, rather than the SDK's console output with multi-line stacks. The SDK
 * calls it pino-style, `(fields, message)`. Bound late: the logger of the moment, not of the import.
 */
export function sdkLogger(
  bindings: Record<string, unknown> = {},
): InngestLogger & { child(bindings: Record<string, unknown>): InngestLogger } {
  const forward =
    (level: Level) =>
    (...args: unknown[]) => {
      if (args.some((arg) => typeof arg === "string" && WRITTEN_BY_THE_EXECUTOR.has(arg)) && workflowsAreEmbedded())
        return;
      const target = Object.keys(bindings).length > 0 ? logger().child(bindings) : logger();
      (target[level] as (...args: unknown[]) => void)(...args);
    };
  return {
    info: forward("info"),
    warn: forward("warn"),
    error: forward("error"),
    debug: forward("debug"),
    // The SDK names a run's logger { runID, eventName }; ours are snake_case.
    child: ({ runID, eventName, ...more }) => sdkLogger({ ...bindings, run_id: runID, event_name: eventName, ...more }),
  };
}
