import { validationFailed } from "@/lib/errors";
import { listWorkflowRuns, retryWorkflowRun, RUN_STATES, type RunState } from "@/lib/operator/workflow-runs";

import { string, type AdminCommand } from "./admin-command";

/** The embedded executor's runs, for operators: what is waiting, what failed and why, and a retry. */
export const workflowCommands: Record<string, AdminCommand> = {
  "workflows:list": {
    summary: `[--state ${RUN_STATES.join("|")}] [--limit N] [--before RUN_ID]   (newest first)`,
    options: { state: string, limit: string, before: string },
    required: [],
    run: async (ctx, v) => {
      const state = v.state as string | undefined;
      if (state && !RUN_STATES.includes(state as RunState))
        throw validationFailed("state", `state: must be one of ${RUN_STATES.join(", ")}.`);
      const limit = Number((v.limit as string | undefined) ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw validationFailed("limit", "limit: must be 1 to 1000.");
      const runs = await listWorkflowRuns(ctx, {
        state: state as RunState | undefined,
        limit,
        before: v.before as string | undefined,
      });
      return {
        data: runs.map((run) => ({
          run_id: run.id,
          function_id: run.functionId,
          event: run.eventName,
          event_data: run.eventData,
          state: run.state,
          attempt: run.attempt,
          steps: run.steps,
          wake_at: run.wakeAt.toISOString(),
          error: run.error,
          created_at: run.createdAt.toISOString(),
          updated_at: run.updatedAt.toISOString(),
        })),
      };
    },
  },
  "workflows:retry": {
    summary: "--run RUN_ID   (a failed run goes again from its failed step, once its cause is fixed)",
    options: { run: string },
    required: ["run"],
    run: async (ctx, v) => {
      const { id, state } = await retryWorkflowRun(ctx, v.run as string);
      return { run_id: id, state };
    },
  },
};
