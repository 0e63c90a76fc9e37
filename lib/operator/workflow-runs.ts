import "server-only";

import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { workflowRuns, type MemoisedStep } from "@/lib/db/schema";
import { notFound, validationFailed } from "@/lib/errors";

/** How a run stands, as an operator reads it: worked on now, waiting for its time, due, or ended. */
export const RUN_STATES = ["running", "sleeping", "due", "failed", "completed", "cancelled"] as const;
export type RunState = (typeof RUN_STATES)[number];

export interface WorkflowRunRow {
  id: string;
  /** The function's own id, without the app's prefix. */
  functionId: string;
  eventName: string;
  eventData: Record<string, unknown>;
  state: RunState;
  attempt: number;
  steps: number;
  wakeAt: Date;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const APP_PREFIX = "mailservice-";

function stateOf(run: { status: string; leaseUntil: Date | null; wakeAt: Date }, now: Date): RunState {
  if (run.status !== "pending") return run.status as RunState;
  if (run.leaseUntil && run.leaseUntil > now) return "running";
  return run.wakeAt > now ? "sleeping" : "due";
}

function whereState(state: RunState, now: Date): SQL {
  const iso = now.toISOString();
  switch (state) {
    case "running":
      return sql`${workflowRuns.status} = 'pending' and ${workflowRuns.leaseUntil} > ${iso}`;
    case "sleeping":
      return sql`${workflowRuns.status} = 'pending' and (${workflowRuns.leaseUntil} is null or ${workflowRuns.leaseUntil} <= ${iso}) and ${workflowRuns.wakeAt} > ${iso}`;
    case "due":
      return sql`${workflowRuns.status} = 'pending' and (${workflowRuns.leaseUntil} is null or ${workflowRuns.leaseUntil} <= ${iso}) and ${workflowRuns.wakeAt} <= ${iso}`;
    default:
      return eq(workflowRuns.status, state);
  }
}

/** The embedded executor's runs, newest first: by state, a page of `limit` before the id `before`. */
export async function listWorkflowRuns(
  ctx: Ctx,
  filter: { state?: RunState; limit: number; before?: string },
): Promise<WorkflowRunRow[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db
    .select({
      id: workflowRuns.id,
      functionId: workflowRuns.functionId,
      event: workflowRuns.event,
      status: workflowRuns.status,
      attempt: workflowRuns.attempt,
      stepCount: sql<number>`jsonb_array_length(${workflowRuns.stepOrder})`,
      wakeAt: workflowRuns.wakeAt,
      leaseUntil: workflowRuns.leaseUntil,
      error: workflowRuns.error,
      createdAt: workflowRuns.createdAt,
      updatedAt: workflowRuns.updatedAt,
    })
    .from(workflowRuns)
    .where(
      and(
        filter.state ? whereState(filter.state, now) : undefined,
        filter.before ? lt(workflowRuns.id, filter.before) : undefined,
      ),
    )
    .orderBy(desc(workflowRuns.id))
    .limit(filter.limit);
  return rows.map((row) => ({
    id: row.id,
    functionId: row.functionId.startsWith(APP_PREFIX) ? row.functionId.slice(APP_PREFIX.length) : row.functionId,
    eventName: row.event.name,
    eventData: row.event.data,
    state: stateOf(row, now),
    attempt: row.attempt,
    steps: Number(row.stepCount),
    wakeAt: row.wakeAt,
    error: row.error,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

/**
 * A failed run goes again once its cause is fixed: the steps it finished stay done (their results are
 * kept), the step that failed for good is forgotten and runs again with fresh attempts.
 */
export async function retryWorkflowRun(ctx: Ctx, runId: string): Promise<{ id: string; state: RunState }> {
  return withTransaction(ctx, async (tx) => {
    const [run] = await tx.db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).for("update");
    if (!run) throw notFound("workflow_run_not_found", `No workflow run ${runId}.`, "run");
    if (run.status !== "failed")
      throw validationFailed("run", `run: only a failed run is retried; this one is ${stateOf(run, tx.clock.now())}.`);
    const failedSteps = new Set(
      Object.entries(run.steps)
        .filter(([, step]: [string, MemoisedStep]) => step.type === "error")
        .map(([id]) => id),
    );
    const steps = Object.fromEntries(Object.entries(run.steps).filter(([id]) => !failedSteps.has(id)));
    await tx.db
      .update(workflowRuns)
      .set({
        status: "pending",
        steps,
        stepOrder: run.stepOrder.filter((id) => !failedSteps.has(id)),
        attempt: 0,
        error: null,
        wakeAt: tx.clock.now(),
        leaseUntil: null,
        updatedAt: tx.clock.now(),
      })
      .where(eq(workflowRuns.id, runId));
    return { id: runId, state: "due" as const };
  });
}
