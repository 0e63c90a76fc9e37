import "server-only";

import type { Inngest, InngestFunction } from "inngest";
import { serve } from "inngest/edge";

import type { Run } from "./claim-runs";
import type { RegisteredFunction } from "./registry";

/** What the SDK reports of one step: its op (StepRun, StepError, Sleep, …) and what goes with it. */
export interface Op {
  op: string;
  id: string;
  name?: string;
  /** The step's own id, as written in the function (`id` is its hash). */
  userland?: { id: string };
  /** A waitForEvent's `timeout` and `if` (`match` arrives as an `if`). */
  opts?: { timeout?: string; if?: string };
  data?: unknown;
  error?: { name: string; message: string; stack?: string };
}

/**
 * Calls a function through the SDK's own serve handler, in-process, with the request an Inngest
 * server would send: the run's event and its memoised steps, so the SDK replays them and runs the next.
 */
export function createFunctionCaller(options: { client: Inngest.Any; functions: InngestFunction.Any[] }) {
  const handler = serve({ client: options.client, functions: options.functions });

  return async function invoke(run: Run, registered: RegisteredFunction, stepId = "step", disableImmediate = false) {
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
  };
}
