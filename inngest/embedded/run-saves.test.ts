import { inArray, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";

import { cachedPlansClient } from "@/lib/db/client";
import { workflowRuns } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { testCtx } from "@/lib/testing/test-context";

import type { Run } from "./claim-runs";
import { createRunSaves, saveRunsSql } from "./run-saves";

const { ctx, clock } = testCtx(new Date("2026-03-01T08:00:00.000Z"));

/** Runs in hand: pending, leased by this executor until a minute from now. */
async function runsInHand(count: number): Promise<Run[]> {
  const leaseUntil = new Date(clock.now().getTime() + 60_000);
  const rows = Array.from({ length: count }, () => {
    const id = newId("run");
    return {
      id,
      functionId: "mailservice-saved",
      event: { id, name: "test/saved", data: {}, ts: clock.now().getTime() },
      wakeAt: clock.now(),
      leaseUntil,
    };
  });
  return ctx.db.insert(workflowRuns).values(rows).returning();
}

function progressed(run: Run, data: unknown): Run {
  return {
    ...run,
    steps: { ...run.steps, step1: { type: "data", data } },
    stepOrder: [...run.stepOrder, "step1"],
    wakeAt: new Date(clock.now().getTime() + 3_600_000),
    leaseUntil: null,
    updatedAt: clock.now(),
  };
}

describe("saving the progress of many runs at once", () => {
  it("the saves of runs in hand at one time are written together, each run's row as its own progress has it", async () => {
    const runs = await runsInHand(3);
    const saves = createRunSaves();
    const saved = await Promise.all(runs.map((run, k) => saves.save(ctx, run, progressed(run, `result ${k}`))));
    expect(saved).toEqual([true, true, true]);
    const rows = await ctx.db
      .select()
      .from(workflowRuns)
      .where(
        inArray(
          workflowRuns.id,
          runs.map((r) => r.id),
        ),
      );
    for (const [k, run] of runs.entries()) {
      const row = rows.find((r) => r.id === run.id)!;
      expect(row.steps).toEqual({ step1: { type: "data", data: `result ${k}` } });
      expect(row.stepOrder).toEqual(["step1"]);
      expect(row.leaseUntil).toBeNull();
      expect(row.wakeAt.getTime()).toBe(clock.now().getTime() + 3_600_000);
    }
  });

  it("a run whose lease was lost is not saved, and the runs saved with it are", async () => {
    const [kept, lost] = await runsInHand(2);
    // Another executor took the run over after this one's lease lapsed.
    const takenOver = { ...lost!, leaseUntil: new Date(clock.now().getTime() + 120_000) };
    await ctx.db
      .update(workflowRuns)
      .set({ leaseUntil: takenOver.leaseUntil })
      .where(inArray(workflowRuns.id, [lost!.id]));
    const saves = createRunSaves();
    const saved = await Promise.all([
      saves.save(ctx, kept!, progressed(kept!, "kept")),
      saves.save(ctx, lost!, progressed(lost!, "lost")),
    ]);
    expect(saved).toEqual([true, false]);
  });

  it("a save reads only the runs it saves, by their ids, whatever the statistics said when it was planned", async () => {
    // Statistics that say a pending run is rare (a table of finished runs, as a running service's
    // is), then many runs pending at once (a list entering an automation) that no ANALYZE has seen.
    const finished = Array.from({ length: 2000 }, () => {
      const id = newId("run");
      return {
        id,
        functionId: "mailservice-saved",
        event: { id, name: "test/saved", data: {}, ts: 0 },
        status: "completed" as const,
        wakeAt: clock.now(),
      };
    });
    await ctx.db.insert(workflowRuns).values(finished);
    await ctx.db.execute(sql`analyze workflow_runs`);
    const runs = await runsInHand(2000);
    const batch = runs.slice(0, 5).map((run) => ({ run, next: progressed(run, "saved") }));

    const query = new PgDialect().sqlToQuery(saveRunsSql(batch));
    const connection = await cachedPlansClient(ctx.db).reserve();
    let plan: PlanNode;
    try {
      await connection`begin`;
      const [row] = await connection.unsafe(`explain (analyze, format json) ${query.sql}`, query.params as never[]);
      plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    } finally {
      await connection`rollback`;
      connection.release();
    }
    // The rows of workflow_runs its scans returned: the five saved, not the 2,000 pending.
    expect(rowsRead(plan, "workflow_runs")).toBe(5);
  });

  it("a save the database refuses fails that run alone, not the runs saved with it", async () => {
    const [before, refused, after] = await runsInHand(3);
    const saves = createRunSaves();
    const results = await Promise.allSettled([
      saves.save(ctx, before!, progressed(before!, "fine")),
      // PostgreSQL's jsonb holds no NUL character: the statement carrying this row fails.
      saves.save(ctx, refused!, progressed(refused!, "nul \u0000 inside")),
      saves.save(ctx, after!, progressed(after!, "fine too")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(results[0]).toMatchObject({ value: true });
    expect(results[2]).toMatchObject({ value: true });
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  Plans?: PlanNode[];
}

/** The rows the plan's scans of `table` returned, over all their loops (the update itself not counted). */
function rowsRead(node: PlanNode, table: string): number {
  const own =
    node["Relation Name"] === table && node["Node Type"] !== "ModifyTable"
      ? node["Actual Rows"] * node["Actual Loops"]
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, table), 0);
}
