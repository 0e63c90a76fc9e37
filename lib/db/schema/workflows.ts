import { sql, type SQL } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex, type PgColumn } from "drizzle-orm/pg-core";

import { at, createdAt, id, updatedAt } from "./columns";

export const RUN_STATUSES = ["pending", "completed", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
}

/** A memoised step: what step.run returned, or the error it finally failed with. */
export type MemoisedStep =
  { type: "data"; data: unknown } | { type: "error"; error: { name: string; message: string; stack?: string } };

/**
 * One run of one Inngest function, as the embedded executor keeps it: the
 * triggering event, the memoised results of the steps done so far (keyed by
 * the SDK's hashed step id) in completion order, and when to run it next.
 * A run is replayed from the top with these results until it finishes.
 */
export const workflowRuns = pgTable(
  "workflow_runs",
  {
    id: id("id").primaryKey(),
    functionId: text("function_id").notNull(),
    event: jsonb("event").$type<RunEvent>().notNull(),
    status: text("status", { enum: RUN_STATUSES }).notNull().default("pending"),
    steps: jsonb("steps").$type<Record<string, MemoisedStep>>().notNull().default({}),
    stepOrder: jsonb("step_order").$type<string[]>().notNull().default([]),
    /** Attempts of the current step (or of the function body), from 0. */
    attempt: integer("attempt").notNull().default(0),
    wakeAt: at("wake_at").notNull(),
    /** Set while an executor works on the run; an expired lease means that executor died. */
    leaseUntil: at("lease_until"),
    /** Runs sharing a key run one at a time, oldest first (the function's `concurrency` key, limit 1). */
    concurrencyKey: text("concurrency_key"),
    /**
     * While the run waits for an event (step.waitForEvent): the wait's hashed step id, the event's name,
     * and what the event must contain (`waitMatch`), one condition of it also as `waitKey` ("path=json")
     * for the index. `wakeAt` is then the timeout. All four are null whenever the run is not waiting, and
     * a waiting run is never in an executor's hands: the save that begins a wait releases the lease.
     */
    waitStep: text("wait_step"),
    waitEvent: text("wait_event"),
    waitKey: text("wait_key"),
    waitMatch: jsonb("wait_match").$type<Record<string, unknown>>(),
    result: jsonb("result"),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The executor claims the next due pending runs, in (wake_at, id) order (claim-runs.ts). The id in
    // the index: runs that came due at one instant (a list of 100,000 entering an automation) are
    // read in order, not sorted whole at every claim; sleeping runs are never read.
    index("workflow_runs_due_idx").on(t.status, t.wakeAt, t.id),
    // A claim skips a run whose key another pending run holds a lease on.
    index("workflow_runs_concurrency_idx")
      .on(t.concurrencyKey)
      .where(sql`${t.status} = 'pending' and ${t.concurrencyKey} is not null`),
    // An arriving event finds the runs waiting for it (resumeWaitingRuns in enqueue.ts).
    index("workflow_runs_wait_idx")
      .on(t.waitEvent, t.waitKey)
      .where(sql`${t.status} = 'pending' and ${t.waitStep} is not null`),
    // An event id starts a function at most once, however often it is sent.
    uniqueIndex("workflow_runs_function_event_key").on(t.functionId, sqlEventId(t.event)),
  ],
);

/** Next firing time of each cron-triggered function; advanced atomically, so one instance fires it. */
export const workflowCrons = pgTable("workflow_crons", {
  functionId: text("function_id").primaryKey(),
  cron: text("cron").notNull(),
  nextAt: at("next_at").notNull(),
});

function sqlEventId(column: PgColumn): SQL {
  return sql`(${column}->>'id')`;
}
