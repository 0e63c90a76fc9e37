import { eq } from "drizzle-orm";
import { eventType, NonRetriableError } from "inngest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { inngest } from "@/inngest/client";
import { workflowRuns } from "@/lib/db/schema";
import { captureLogs, type CapturedLogs } from "@/lib/testing/capture-logs";
import { testCtx } from "@/lib/testing/test-context";

import { createEmbeddedExecutor } from "./executor";

const { ctx, clock } = testCtx(new Date("2026-03-01T08:00:00.000Z"));
const logged = eventType("test/logged");
const doomed = eventType("test/logged-doomed");
const awaiting = eventType("test/logged-awaiting");
let wobbles = 0;

const functions = [
  inngest.createFunction({ id: "logged", triggers: [logged], retries: 2 }, async ({ step }) => {
    await step.run("fetch", () => "fetched");
    await step.run("wobble", () => {
      if (wobbles++ === 0) throw new Error("not yet");
      return "steady";
    });
    await step.sleep("nap", "1m");
    return "done";
  }),
  inngest.createFunction({ id: "logged-doomed", triggers: [doomed], retries: 0 }, async ({ step }) => {
    await step.run("give-up", () => {
      throw new NonRetriableError("no point retrying");
    });
  }),
  inngest.createFunction({ id: "logged-awaiting", triggers: [awaiting] }, async ({ step }) => {
    await step.waitForEvent("confirmation", { event: "test/logged-confirmed", timeout: "2h" });
  }),
];
const executor = createEmbeddedExecutor({ client: inngest, functions });

let logs: CapturedLogs;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.restore());

describe("Logs: one line per workflow step", () => {
  it("a workflow step writes one log line with function, run, step, attempt, duration and outcome", async () => {
    await executor.enqueue(ctx, [{ name: "test/logged" }]);
    const [{ id: runId } = { id: "" }] = await ctx.db
      .select({ id: workflowRuns.id })
      .from(workflowRuns)
      .where(eq(workflowRuns.functionId, "mailservice-logged"));
    await executor.runDue(ctx);
    clock.advance(60_000);
    await executor.runDue(ctx);
    clock.advance(60_000);
    await executor.runDue(ctx);

    const steps = logs.withMessage("workflow step");
    expect(steps.map(({ step, attempt, outcome, level }) => ({ step, attempt, outcome, level }))).toEqual([
      { step: "fetch", attempt: 0, outcome: "ok", level: "info" },
      { step: "wobble", attempt: 0, outcome: "error", level: "warn" },
      { step: "wobble", attempt: 1, outcome: "ok", level: "info" },
      { step: "nap", attempt: 0, outcome: "sleep", level: "info" },
    ]);
    for (const line of steps)
      expect(line).toMatchObject({ function_id: "mailservice-logged", run_id: runId, duration_ms: expect.any(Number) });
    expect(steps[1]).toMatchObject({
      wake_at: expect.any(String),
      err: { message: "not yet", stack: expect.stringContaining("not yet") },
    });
    expect(steps[3]).toMatchObject({ wake_at: "2026-03-01T08:02:00.000Z" });
    expect(logs.withMessage("workflow run")).toEqual([
      expect.objectContaining({
        function_id: "mailservice-logged",
        run_id: runId,
        outcome: "completed",
        level: "info",
      }),
    ]);
  });

  it("a wait for an event is logged as one line with outcome wait, the event it waits for and its timeout", async () => {
    await executor.enqueue(ctx, [{ name: awaiting.name }]);
    await executor.runDue(ctx);
    expect(logs.withMessage("workflow step")).toEqual([
      expect.objectContaining({
        function_id: "mailservice-logged-awaiting",
        step: "confirmation",
        outcome: "wait",
        level: "info",
        wait_event: "test/logged-confirmed",
        wake_at: new Date(clock.now().getTime() + 2 * 60 * 60_000).toISOString(),
      }),
    ]);
  });

  it("a step that fails for good is logged as an error, and so is the run it fails, each stack once", async () => {
    await executor.enqueue(ctx, [{ name: "test/logged-doomed" }]);
    await executor.runDue(ctx);
    expect(logs.withMessage("workflow step")).toEqual([
      expect.objectContaining({
        step: "give-up",
        outcome: "failed",
        level: "error",
        err: expect.objectContaining({ message: "no point retrying" }),
      }),
    ]);
    // The function let the step's error through: the run's line names it, without the stack again.
    expect(logs.withMessage("workflow run")).toEqual([
      expect.objectContaining({ outcome: "failed", level: "error", error: "no point retrying" }),
    ]);
    expect(logs.lines.filter((line) => JSON.stringify(line).includes("at "))).toHaveLength(1);
    // Nor are the SDK's own copies of these errors written.
    expect(logs.lines.filter((line) => line.msg.startsWith("Inngest"))).toEqual([]);
  });
});
