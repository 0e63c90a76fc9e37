import { describe, expect, it } from "vitest";

import { inngest } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { testCtx } from "@/lib/testing/test-context";

import { listWorkflowRuns, retryWorkflowRun } from "./workflow-runs";

const { ctx, clock } = testCtx();

describe("workflow runs for operators", () => {
  it("a failed run is listed with its error; retried, it runs the failed step again and not the finished one", async () => {
    const ran: string[] = [];
    let broken = true;
    const flaky = inngest.createFunction(
      { id: "flaky-for-operators", triggers: [{ event: "test/flaky-for-operators" }], retries: 0 },
      async ({ step }) => {
        await step.run("first", () => ran.push("first"));
        return step.run("second", () => {
          ran.push("second");
          if (broken) throw new Error("the receiver is down");
          return "delivered";
        });
      },
    );
    const executor = createEmbeddedExecutor({ client: inngest, functions: [flaky] });
    await executor.enqueue(ctx, [{ name: "test/flaky-for-operators", data: {} }]);
    for (let i = 0; i < 5; i++) {
      await executor.runDue(ctx);
      clock.advance(60 * 60_000);
    }
    const [failed] = await listWorkflowRuns(ctx, { state: "failed", limit: 10 });
    expect(failed).toMatchObject({
      functionId: "flaky-for-operators",
      eventName: "test/flaky-for-operators",
      state: "failed",
      error: expect.stringContaining("the receiver is down"),
    });
    expect(ran.filter((step) => step === "first")).toHaveLength(1);

    broken = false;
    expect(await retryWorkflowRun(ctx, failed!.id)).toEqual({ id: failed!.id, state: "due" });
    expect(await listWorkflowRuns(ctx, { state: "due", limit: 10 })).toMatchObject([{ id: failed!.id }]);
    await executor.runDue(ctx);
    expect(await listWorkflowRuns(ctx, { state: "completed", limit: 10 })).toMatchObject([
      { id: failed!.id, error: null },
    ]);
    expect(ran.filter((step) => step === "first")).toHaveLength(1);
    expect(ran.at(-1)).toBe("second");
  });

  it("only a failed run is retried; an unknown one is not found", async () => {
    const sleeper = inngest.createFunction(
      { id: "sleeper-for-operators", triggers: [{ event: "test/sleeper-for-operators" }] },
      async ({ step }) => {
        await step.sleep("nap", "1h");
      },
    );
    const executor = createEmbeddedExecutor({ client: inngest, functions: [sleeper] });
    await executor.enqueue(ctx, [{ name: "test/sleeper-for-operators", data: {} }]);
    await executor.runDue(ctx);
    const [sleeping] = await listWorkflowRuns(ctx, { state: "sleeping", limit: 10 });
    expect(sleeping).toMatchObject({ functionId: "sleeper-for-operators", state: "sleeping" });
    await expect(retryWorkflowRun(ctx, sleeping!.id)).rejects.toMatchObject({
      code: "validation_failed",
      param: "run",
    });
    await expect(retryWorkflowRun(ctx, "run_missing")).rejects.toMatchObject({ code: "workflow_run_not_found" });
  });
});
