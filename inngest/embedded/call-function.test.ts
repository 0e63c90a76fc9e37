import { eventType, Middleware } from "inngest";
import { describe, expect, it } from "vitest";

import { inngest } from "@/inngest/client";

import { createFunctionCaller, type Op } from "./call-function";
import type { Run } from "./claim-runs";
import { registerFunctions } from "./registry";

const called = eventType("test/called");
const at = new Date("2026-03-01T08:00:00.000Z");

function runOf(functionId: string, steps: Run["steps"] = {}, stepOrder: string[] = []): Run {
  return {
    id: "run_called",
    functionId,
    event: { id: "evt_called", name: "test/called", data: { who: "ada" }, ts: at.getTime() },
    status: "pending",
    steps,
    stepOrder,
    attempt: 0,
    wakeAt: at,
    leaseUntil: null,
    concurrencyKey: null,
    waitStep: null,
    waitEvent: null,
    waitKey: null,
    waitMatch: null,
    result: null,
    error: null,
    createdAt: at,
    updatedAt: at,
  };
}

describe("calling a function in-process", () => {
  it("a step's result is memoised as JSON carries it: a date as its ISO string, as the next replay reads it", async () => {
    const functions = [
      inngest.createFunction({ id: "called-date", triggers: [called] }, async ({ step }) => {
        await step.run("when", () => at);
      }),
    ];
    const [registered] = registerFunctions(inngest, functions);
    const invoke = createFunctionCaller({ client: inngest, functions });
    const response = await invoke(runOf(registered!.slug), registered!);
    expect(response.status).toBe(206);
    const [op] = response.body as Op[];
    expect(op).toMatchObject({ op: "StepRun", data: at.toISOString() });
  });

  it("what a function does to its event and its steps' results stays in that call", async () => {
    const functions = [
      inngest.createFunction({ id: "called-mutating", triggers: [called] }, async ({ event, step }) => {
        const list = await step.run("list", () => ["a"]);
        list.push("b");
        (event.data as { who: string }).who = "grace";
        return { list, who: (event.data as { who: string }).who };
      }),
    ];
    const [registered] = registerFunctions(inngest, functions);
    const invoke = createFunctionCaller({ client: inngest, functions });
    const first = await invoke(runOf(registered!.slug), registered!);
    const [op] = first.body as Op[];
    const run = runOf(registered!.slug, { [op!.id]: { type: "data", data: ["a"] } }, [op!.id]);
    const second = await invoke(run, registered!);
    expect(second).toMatchObject({ status: 200, body: { list: ["a", "b"], who: "grace" } });
    expect(run.steps).toEqual({ [op!.id]: { type: "data", data: ["a"] } });
    expect(run.event.data).toEqual({ who: "ada" });
  });

  it("a function's middleware wraps each call in-process as it wraps each request to the serve handler", async () => {
    const wrapped: string[] = [];
    class WrapsRequest extends Middleware.BaseMiddleware {
      readonly id = "wraps-request";
      async wrapRequest(args: Middleware.WrapRequestArgs) {
        wrapped.push(`before ${args.runId}`);
        const response = await args.next();
        wrapped.push(`after ${response.status}`);
        return response;
      }
    }
    const functions = [
      inngest.createFunction(
        { id: "called-wrapped", triggers: [called], middleware: [WrapsRequest] },
        async () => "done",
      ),
    ];
    const [registered] = registerFunctions(inngest, functions);
    const invoke = createFunctionCaller({ client: inngest, functions });
    expect(await invoke(runOf(registered!.slug), registered!)).toMatchObject({ status: 200, body: "done" });
    expect(wrapped).toEqual(["before run_called", "after 200"]);
  });
});
