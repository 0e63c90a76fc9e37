import { spawn } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { eventType, NonRetriableError, referenceFunction } from "inngest";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { workflowRuns } from "@/lib/db/schema";
import { testCtx } from "@/lib/testing/test-context";

import { createEmbeddedExecutor } from "./executor";
import { retryDelayMs } from "./retry-delay";
import { crashFunction, crashTest } from "./testing/crash-function";

const { ctx, clock } = testCtx(new Date("2026-03-01T08:00:00.000Z"));
const effects: string[] = [];
const countOf = (name: string) => effects.filter((e) => e === name).length;

const stepped = eventType("test/stepped", { schema: z.object({ who: z.string() }) });
const flaky = eventType("test/flaky");
const doomed = eventType("test/doomed");
const parallel = eventType("test/parallel");
const waiting = eventType("test/waiting");
const campaignEvent = eventType("test/campaign.started");
const campaignCancelled = eventType("test/campaign.cancelled");
const scheduled = eventType("test/scheduled", { schema: z.object({ at: z.string() }) });
const slow = eventType("test/slow");
const twoSteps = eventType("test/two-steps");
const stopDuring = eventType("test/stop-during");
const takenOver = eventType("test/taken-over");
/** The lease another executor writes when it takes a run over: far ahead, so that no later test here takes the run again. */
const TAKEN_OVER_UNTIL = new Date("2099-01-01T00:00:00.000Z");

/** Set by the stop-during function's first step: resolved once the step runs, so the test can stop the executor then. */
let stopNow: () => void = () => {};

let flakyFailures = 0;
const functions = [
  inngest.createFunction({ id: "stepped", triggers: [stepped] }, async ({ event, step }) => {
    const greeting = await step.run("greet", () => {
      effects.push("greet");
      return `hello ${event.data.who}`;
    });
    await step.sleep("nap", "1h");
    const shout = await step.run("shout", () => {
      effects.push("shout");
      return greeting.toUpperCase();
    });
    await step.sendEvent("follow-up", { name: "test/flaky", data: {} });
    return { greeting, shout };
  }),
  inngest.createFunction({ id: "flaky", triggers: [flaky], retries: 3 }, async ({ step }) =>
    step.run("wobble", () => {
      effects.push("wobble");
      if (flakyFailures-- > 0) throw new Error("not yet");
      return "steady";
    }),
  ),
  inngest.createFunction({ id: "doomed", triggers: [doomed], retries: 1 }, async ({ step }) => {
    try {
      await step.run("always-fails", () => {
        effects.push("always-fails");
        throw new NonRetriableError("no point retrying");
      });
    } catch {
      effects.push("caught");
    }
    throw new NonRetriableError("the function gives up");
  }),
  inngest.createFunction({ id: "parallel", triggers: [parallel] }, async ({ step }) => {
    const [a, b] = await Promise.all([
      step.run("a", () => (effects.push("a"), 1)),
      step.run("b", () => (effects.push("b"), 2)),
    ]);
    return a + b;
  }),
  inngest.createFunction({ id: "scheduled", triggers: [scheduled] }, async ({ event, step }) => {
    await step.sleepUntil("until-time", event.data.at);
    return step.run("at-time", () => effects.push("at-time"));
  }),
  inngest.createFunction({ id: "slow", triggers: [slow] }, async ({ step }) =>
    step.run("long-step", async () => {
      effects.push("long-step");
      await new Promise((resolve) => setTimeout(resolve, 6000));
      return "done";
    }),
  ),
  inngest.createFunction({ id: "two-steps", triggers: [twoSteps] }, async ({ step }) => {
    effects.push("two-steps called");
    const first = await step.run("first", () => (effects.push("two-steps first"), 1));
    const second = await step.run("second", () => (effects.push("two-steps second"), first + 1));
    return { first, second };
  }),
  inngest.createFunction({ id: "stop-during", triggers: [stopDuring] }, async ({ step }) => {
    await step.run("before-stop", async () => {
      effects.push("before-stop");
      stopNow();
      // Long enough for stop() to be called while this step is in hand.
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    await step.run("after-stop", () => effects.push("after-stop"));
    return "finished";
  }),
  inngest.createFunction({ id: "taken-over", triggers: [takenOver] }, async ({ step, runId }) => {
    await step.run("while-taken-over", async () => {
      effects.push("while-taken-over");
      // Another executor takes the run over while this step works (this one's lease lapsed meanwhile).
      await ctx.db.update(workflowRuns).set({ leaseUntil: TAKEN_OVER_UNTIL }).where(eq(workflowRuns.id, runId));
    });
    await step.run("after-take-over", () => effects.push("after-take-over"));
  }),
  inngest.createFunction({ id: "waiting", triggers: [waiting] }, async ({ step }) => {
    await step.invoke("call-another", { function: referenceFunction({ functionId: "elsewhere" }), data: {} });
  }),
  inngest.createFunction(
    {
      id: "campaign",
      triggers: [campaignEvent],
      cancelOn: [{ event: "test/campaign.cancelled", if: "event.data.campaignId == async.data.campaignId" }],
    },
    async ({ step }) => {
      await step.sleep("until-send-time", "1d");
      await step.run("send", () => effects.push("campaign-sent"));
    },
  ),
];
const executor = createEmbeddedExecutor({ client: inngest, functions });
routeEmbeddedEvents((events) => executor.enqueue(ctx, events));

const runsOf = (slug: string) =>
  ctx.db
    .select()
    .from(workflowRuns)
    .where(eq(workflowRuns.functionId, `mailservice-${slug}`));

describe("embedded executor", () => {
  it("events start runs; memoised steps are not run again on replay; sleep waits until its time", async () => {
    await executor.enqueue(ctx, [{ name: "test/stepped", data: { who: "ada" } }]);
    await executor.runDue(ctx);
    expect(countOf("greet")).toBe(1);
    expect(countOf("shout")).toBe(0);
    const [sleeping] = await runsOf("stepped");
    expect(sleeping).toMatchObject({ status: "pending", wakeAt: new Date("2026-03-01T09:00:00.000Z") });

    clock.advance(30 * 60_000);
    await executor.runDue(ctx);
    expect(countOf("shout")).toBe(0);

    clock.advance(30 * 60_000);
    await executor.runDue(ctx);
    expect(countOf("greet")).toBe(1);
    expect(countOf("shout")).toBe(1);
    const [done] = await runsOf("stepped");
    expect(done).toMatchObject({ status: "completed", result: { greeting: "hello ada", shout: "HELLO ADA" } });
    // step.sendEvent went to the embedded queue and started the flaky function.
    expect(await runsOf("flaky")).toHaveLength(1);
  });

  it("a function goes on past each step once the step is saved: its steps and its return are one call, not one call each", async () => {
    await executor.enqueue(ctx, [{ name: "test/two-steps" }]);
    await executor.runDue(ctx);
    // Without checkpoints the function is called three times: each call runs one step, the last returns.
    expect(countOf("two-steps called")).toBe(1);
    expect(countOf("two-steps first")).toBe(1);
    expect(countOf("two-steps second")).toBe(1);
    const [run] = await runsOf("two-steps");
    expect(run).toMatchObject({ status: "completed", result: { first: 1, second: 2 }, error: null });
    expect(run!.stepOrder.map((id) => run!.steps[id])).toEqual([
      { type: "data", data: 1 },
      { type: "data", data: 2 },
    ]);
  });

  it("an executor stopped during a step saves that step and hands the run back; another goes on from the next step", async () => {
    const stopping = createEmbeddedExecutor({ client: inngest, functions });
    await stopping.enqueue(ctx, [{ name: "test/stop-during" }]);
    const stepRunning = new Promise<void>((resolve) => (stopNow = resolve));
    await stopping.start(ctx, 60_000);
    await stepRunning;
    await stopping.stop();
    expect(countOf("before-stop")).toBe(1);
    expect(countOf("after-stop")).toBe(0);
    const [handedBack] = await runsOf("stop-during");
    expect(handedBack).toMatchObject({ status: "pending", leaseUntil: null });
    expect(Object.values(handedBack!.steps)).toEqual([{ type: "data", data: null }]);

    await executor.runDue(ctx);
    expect(countOf("before-stop")).toBe(1);
    expect(countOf("after-stop")).toBe(1);
    const [done] = await runsOf("stop-during");
    expect(done).toMatchObject({ status: "completed", result: "finished" });
  });

  it("a run taken over by another executor during a step goes no further here: that step is not saved and the next does not run", async () => {
    await executor.enqueue(ctx, [{ name: "test/taken-over" }]);
    await executor.runDue(ctx);
    expect(countOf("while-taken-over")).toBe(1);
    expect(countOf("after-take-over")).toBe(0);
    const [run] = await runsOf("taken-over");
    // The other executor's lease stands, and the run is as that executor found it.
    expect(run).toMatchObject({ status: "pending", leaseUntil: TAKEN_OVER_UNTIL, steps: {}, stepOrder: [] });
  });

  it("sleepUntil wakes the run at the given time, not before", async () => {
    const at = new Date(clock.now().getTime() + 3 * 24 * 60 * 60_000);
    await executor.enqueue(ctx, [{ name: "test/scheduled", data: { at: at.toISOString() } }]);
    await executor.runDue(ctx);
    const [waitingRun] = await runsOf("scheduled");
    expect(waitingRun).toMatchObject({ status: "pending", wakeAt: at });
    clock.set(new Date(at.getTime() - 1000));
    await executor.runDue(ctx);
    expect(countOf("at-time")).toBe(0);
    clock.set(at);
    await executor.runDue(ctx);
    expect(countOf("at-time")).toBe(1);
    expect((await runsOf("scheduled"))[0]!.status).toBe("completed");
  });

  it("an event id starts a function at most once, however often it is sent", async () => {
    await executor.enqueue(ctx, [{ name: "test/parallel", id: "once-only" }]);
    await executor.enqueue(ctx, [{ name: "test/parallel", id: "once-only" }]);
    await inngest.send({ name: "test/parallel", id: "once-only", data: {} });
    expect((await runsOf("parallel")).filter((r) => r.event.id === "once-only")).toHaveLength(1);
  });

  it("parallel steps each run once and the function sees both results", async () => {
    await executor.runDue(ctx);
    const [run] = (await runsOf("parallel")).filter((r) => r.event.id === "once-only");
    expect(run).toMatchObject({ status: "completed", result: 3 });
    expect([countOf("a"), countOf("b")]).toEqual([1, 1]);
  });

  it("a failing step is retried with growing backoff and its memo is kept once it succeeds", async () => {
    await ctx.db.delete(workflowRuns).where(eq(workflowRuns.functionId, "mailservice-flaky"));
    flakyFailures = 2;
    const before = countOf("wobble");
    await executor.enqueue(ctx, [{ name: "test/flaky" }]);
    await executor.runDue(ctx);
    let [run] = await runsOf("flaky");
    expect(run).toMatchObject({ status: "pending", attempt: 1, error: "not yet" });
    const firstWait = run!.wakeAt.getTime() - clock.now().getTime();
    expect(firstWait).toBeGreaterThanOrEqual(1000);

    clock.advance(firstWait);
    await executor.runDue(ctx);
    [run] = await runsOf("flaky");
    expect(run!.attempt).toBe(2);
    expect(run!.wakeAt.getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(2000);

    clock.advance(60_000);
    await executor.runDue(ctx);
    [run] = await runsOf("flaky");
    expect(run).toMatchObject({ status: "completed", result: "steady", attempt: 0 });
    expect(countOf("wobble") - before).toBe(3);
    expect(retryDelayMs(20)).toBeLessThanOrEqual(11 * 60_000);
  });

  it("a non-retriable failure is given to the function once, and a function that gives up fails its run", async () => {
    await executor.enqueue(ctx, [{ name: "test/doomed" }]);
    await executor.runDue(ctx);
    const [run] = await runsOf("doomed");
    expect(run).toMatchObject({ status: "failed", error: "the function gives up" });
    expect([countOf("always-fails"), countOf("caught")]).toEqual([1, 1]);
  });

  it("a function that uses a step tool the executor does not support fails its run", async () => {
    await executor.enqueue(ctx, [{ name: "test/waiting" }]);
    await executor.runDue(ctx);
    const [run] = await runsOf("waiting");
    expect(run).toMatchObject({
      status: "failed",
      error: "step tool not supported by the embedded executor: InvokeFunction",
    });
  });

  it("cancellation: an event named in cancelOn cancels the matching pending runs only", async () => {
    await executor.enqueue(ctx, [
      { name: "test/campaign.started", data: { campaignId: "cmp_1" } },
      { name: "test/campaign.started", data: { campaignId: "cmp_2" } },
    ]);
    await executor.runDue(ctx);
    await executor.enqueue(ctx, [{ name: campaignCancelled.name, data: { campaignId: "cmp_1" } }]);
    clock.advance(24 * 60 * 60_000);
    await executor.runDue(ctx);
    const runs = await runsOf("campaign");
    expect(runs.map((r) => [r.event.data.campaignId, r.status]).sort()).toEqual([
      ["cmp_1", "cancelled"],
      ["cmp_2", "completed"],
    ]);
    expect(countOf("campaign-sent")).toBe(1);
  });

  it("functions asking for what the executor cannot do are refused at start", () => {
    const withIf = inngest.createFunction(
      { id: "filtered", triggers: [{ event: "test/x", if: "event.data.a == 1" }] },
      async () => null,
    );
    expect(() => createEmbeddedExecutor({ client: inngest, functions: [withIf] })).toThrow(
      "trigger expressions are not supported",
    );
    const oddCancel = inngest.createFunction(
      { id: "odd", triggers: [{ event: "test/x" }], cancelOn: [{ event: "test/y", if: "event.data.a > 1" }] },
      async () => null,
    );
    expect(() => createEmbeddedExecutor({ client: inngest, functions: [oddCancel] })).toThrow("cancelOn supports only");
    const wideConcurrency = inngest.createFunction(
      { id: "wide", triggers: [{ event: "test/x" }], concurrency: { key: "event.data.a", limit: 5 } },
      async () => null,
    );
    expect(() => createEmbeddedExecutor({ client: inngest, functions: [wideConcurrency] })).toThrow(
      "concurrency supports only",
    );
  });

  it("an event stamped in the future (ts) starts its run at that time, as with Inngest", async () => {
    const ran: string[] = [];
    const later = eventType("test/later", { schema: z.object({ who: z.string() }) });
    const fn = inngest.createFunction({ id: "later", triggers: [later] }, async ({ event, step }) =>
      step.run("note", () => ran.push(event.data.who)),
    );
    const executor = createEmbeddedExecutor({ client: inngest, functions: [fn] });
    clock.set(new Date("2026-03-03T09:00:00.000Z"));
    await executor.enqueue(ctx, [
      { name: later.name, data: { who: "at ten" }, ts: new Date("2026-03-03T10:00:00.000Z").getTime() },
    ]);
    await executor.enqueue(ctx, [
      { name: later.name, data: { who: "stamped in the past" }, ts: new Date("2026-03-01T00:00:00.000Z").getTime() },
    ]);
    await executor.runDue(ctx);
    expect(ran).toEqual(["stamped in the past"]);
    clock.set(new Date("2026-03-03T09:59:59.999Z"));
    await executor.runDue(ctx);
    expect(ran).toEqual(["stamped in the past"]);
    clock.set(new Date("2026-03-03T10:00:00.000Z"));
    await executor.runDue(ctx);
    expect(ran).toEqual(["stamped in the past", "at ten"]);
  });

  it("crons start a run when due, once per due time even with two executors", async () => {
    const ticks: string[] = [];
    const cronFunction = inngest.createFunction(
      { id: "every-five", triggers: [{ cron: "*/5 * * * *" }] },
      async ({ step }) => step.run("tick", () => ticks.push("tick")),
    );
    const first = createEmbeddedExecutor({ client: inngest, functions: [cronFunction] });
    const second = createEmbeddedExecutor({ client: inngest, functions: [cronFunction] });
    clock.set(new Date("2026-03-02T10:01:00.000Z"));
    await first.start(ctx, 60_000);
    await first.stop();
    await Promise.all([first.runDue(ctx), second.runDue(ctx)]);
    expect(ticks).toHaveLength(0);
    // Both fire the crons; only the second claims runs (the first is stopped). A run the first fired after the
    // second had claimed is taken on the second's next poll, as a running executor would.
    const poll = async () => {
      await Promise.all([first.runDue(ctx), second.runDue(ctx)]);
      await second.runDue(ctx);
    };
    clock.set(new Date("2026-03-02T10:05:00.000Z"));
    await poll();
    expect(ticks).toHaveLength(1);
    clock.set(new Date("2026-03-02T10:12:00.000Z"));
    await poll();
    expect(ticks).toHaveLength(2);
  });
});

describe("embedded executor across a crash", () => {
  afterAll(() => ctx.db.execute(sql`drop table if exists crash_effects`));

  it("a step that outlasts the lease keeps its run: the lease is renewed while it works, so another executor does not take it", async () => {
    // Real time: the lease and its renewals are timers. A two-second lease against a six-second step.
    const realCtx = { ...ctx, clock: { now: () => new Date() } };
    const holder = createEmbeddedExecutor({ client: inngest, functions, leaseMs: 2000 });
    const other = createEmbeddedExecutor({ client: inngest, functions, leaseMs: 2000 });
    await holder.enqueue(realCtx, [{ name: slow.name, data: {} }]);
    const holding = holder.runDue(realCtx);
    while (countOf("long-step") === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    let takenByOther = 0;
    for (let i = 0; i < 15; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      takenByOther += await other.runDue(realCtx);
    }
    await holding;
    expect(takenByOther).toBe(0);
    expect(countOf("long-step")).toBe(1);
    const [run] = await ctx.db.select().from(workflowRuns).where(eq(workflowRuns.functionId, "mailservice-slow"));
    expect(run).toMatchObject({ status: "completed", result: "done" });
  });

  it("a process killed between two steps is resumed by another without re-running the finished step", async () => {
    await ctx.db.execute(sql`create table crash_effects (step text not null, at timestamptz not null default now())`);
    const crashExecutor = createEmbeddedExecutor({ client: inngest, functions: [crashFunction], leaseMs: 1000 });
    const realCtx = { ...ctx, clock: { now: () => new Date() } };
    await crashExecutor.enqueue(realCtx, [{ name: crashTest.name }]);

    // Node itself, not npx: SIGKILL must reach the executor, not a wrapper that would leave it running.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=react-server", "inngest/embedded/testing/crash-child.ts"],
      {
        env: { ...process.env, CRASH: "1" },
        stdio: "ignore",
      },
    );
    const effectsNow = async () =>
      (await ctx.db.execute<{ step: string }>(sql`select step from crash_effects order by at`)).map((r) => r.step);
    for (let i = 0; i < 300 && !(await effectsNow()).includes("second"); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await effectsNow()).toEqual(["first", "second"]);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    // The dead executor's lease runs out; a fresh one takes the run over.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await crashExecutor.runDue(realCtx);
    const [run] = await ctx.db.select().from(workflowRuns).where(eq(workflowRuns.functionId, "mailservice-crash-test"));
    expect(run).toMatchObject({ status: "completed", result: "second done" });
    // The finished step ran once; the interrupted one ran again (steps are at-least-once, hence idempotent).
    expect(await effectsNow()).toEqual(["first", "second", "second"]);
  });
});
