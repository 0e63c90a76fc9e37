import { eq } from "drizzle-orm";
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { workflowRuns, type RunEvent } from "@/lib/db/schema";
import { testCtx } from "@/lib/testing/test-context";

import { createEmbeddedExecutor } from "./executor";
import { matchKeysOf, readWaitMatch } from "./wait-match";

const { ctx, clock } = testCtx(new Date("2026-03-01T08:00:00.000Z"));
const HOUR = 60 * 60_000;

const contact = z.object({ contactId: z.string(), plan: z.string().optional() });
const signedUp = eventType("test/wait.signed-up", { schema: contact });
const confirmed = eventType("test/wait.confirmed", { schema: contact });
const trialStarted = eventType("test/wait.trial-started", { schema: contact });
const upgraded = eventType("test/wait.upgraded", { schema: contact });
const noted = eventType("test/wait.noted", { schema: contact });
const oddWait = eventType("test/wait.odd", { schema: contact });
const resting = eventType("test/wait.resting", { schema: contact });

/** What each run's step after its wait saw, by contact: the awaited event, or null on timeout. */
const seen: { contactId: string; got: { id: string; name: string; data: unknown; ts: number } | null }[] = [];
const seenBy = (contactId: string) => seen.filter((s) => s.contactId === contactId).map((s) => s.got);

const functions = [
  // The SDK's `match`: sent as the expression "event.data.contactId == async.data.contactId".
  inngest.createFunction({ id: "wait-confirmed", triggers: [signedUp] }, async ({ event, step }) => {
    const got = await step.waitForEvent("confirmed", { event: confirmed, match: "data.contactId", timeout: "1d" });
    await step.run("after", () => {
      seen.push({ contactId: event.data.contactId, got: got as never });
    });
  }),
  // A hand-written `if`: a field of the triggering event and a literal, joined by &&.
  inngest.createFunction({ id: "wait-upgraded", triggers: [trialStarted] }, async ({ event, step }) => {
    const got = await step.waitForEvent("upgraded", {
      event: upgraded,
      if: "event.data.contactId == async.data.contactId && async.data.plan == 'pro'",
      timeout: "2h",
    });
    await step.run("after", () => {
      seen.push({ contactId: event.data.contactId, got: got as never });
    });
  }),
  // The awaited event is sent by the step before the wait, while the run is in an executor's hands.
  inngest.createFunction({ id: "wait-after-step", triggers: [noted] }, async ({ event, step }) => {
    await step.run("before", () =>
      executor.enqueue(ctx, [{ name: confirmed.name, data: { contactId: event.data.contactId } }]),
    );
    const got = await step.waitForEvent("confirmed", { event: confirmed, match: "data.contactId", timeout: "1h" });
    await step.run("after", () => {
      seen.push({ contactId: event.data.contactId, got: got as never });
    });
  }),
  // After its wait, the run sleeps: a wait that is over must not be met again by a later event.
  inngest.createFunction({ id: "wait-then-sleep", triggers: [resting] }, async ({ event, step }) => {
    const got = await step.waitForEvent("confirmed", { event: confirmed, match: "data.contactId", timeout: "1h" });
    await step.sleep("rest", "1d");
    await step.run("after", () => {
      seen.push({ contactId: event.data.contactId, got: got as never });
    });
  }),
  inngest.createFunction({ id: "wait-odd", triggers: [oddWait] }, async ({ step }) => {
    await step.waitForEvent("odd", { event: confirmed, if: "async.data.plan != 'pro'", timeout: "1h" });
  }),
];
const executor = createEmbeddedExecutor({ client: inngest, functions });
routeEmbeddedEvents((events) => executor.enqueue(ctx, events));

const runOf = async (slug: string, contactId: string) => {
  const runs = await ctx.db
    .select()
    .from(workflowRuns)
    .where(eq(workflowRuns.functionId, `mailservice-${slug}`));
  return runs.find((r) => r.event.data.contactId === contactId)!;
};
const send = (name: string, contactId: string, extra: Record<string, unknown> = {}) =>
  executor.enqueue(ctx, [{ name, data: { contactId, ...extra } }]);

describe("embedded executor: step.waitForEvent", () => {
  it("a matching event sent after the wait began resumes the run with that event (id, name, data, ts)", async () => {
    await send(signedUp.name, "ct_match");
    await executor.runDue(ctx);
    const waiting = await runOf("wait-confirmed", "ct_match");
    expect(waiting).toMatchObject({
      status: "pending",
      waitEvent: confirmed.name,
      waitKey: 'data.contactId="ct_match"',
      wakeAt: new Date(clock.now().getTime() + 24 * HOUR),
      leaseUntil: null,
    });

    clock.advance(HOUR);
    const [eventId] = await send(confirmed.name, "ct_match", { plan: "pro" });
    await executor.runDue(ctx);
    expect(seenBy("ct_match")).toEqual([
      { id: eventId, name: confirmed.name, data: { contactId: "ct_match", plan: "pro" }, ts: clock.now().getTime() },
    ]);
    expect(await runOf("wait-confirmed", "ct_match")).toMatchObject({ status: "completed", waitStep: null });
  });

  it("one event resumes every run waiting for it, as with Inngest", async () => {
    await send(signedUp.name, "ct_both");
    await send(signedUp.name, "ct_both");
    await executor.runDue(ctx);
    const [eventId] = await send(confirmed.name, "ct_both");
    await executor.runDue(ctx);
    expect(seenBy("ct_both").map((got) => got?.id)).toEqual([eventId, eventId]);
  });

  it("the timeout passing resumes the run with null, not before", async () => {
    await send(signedUp.name, "ct_timeout");
    await executor.runDue(ctx);
    clock.advance(24 * HOUR - 1000);
    await executor.runDue(ctx);
    expect(seenBy("ct_timeout")).toEqual([]);
    clock.advance(1000);
    await executor.runDue(ctx);
    expect(seenBy("ct_timeout")).toEqual([null]);
    // An event after the timeout finds no wait: the run is not resumed again.
    await send(confirmed.name, "ct_timeout");
    await executor.runDue(ctx);
    expect(seenBy("ct_timeout")).toEqual([null]);
  });

  it("a wait that timed out is over: a later matching event neither resumes nor wakes the run", async () => {
    await send(resting.name, "ct_over");
    await executor.runDue(ctx);
    clock.advance(HOUR);
    await executor.runDue(ctx);
    expect(await runOf("wait-then-sleep", "ct_over")).toMatchObject({ status: "pending", waitStep: null });
    await send(confirmed.name, "ct_over");
    await executor.runDue(ctx);
    expect(seenBy("ct_over")).toEqual([]);
    clock.advance(24 * HOUR);
    await executor.runDue(ctx);
    expect(seenBy("ct_over")).toEqual([null]);
  });

  it("an event that does not match does not resume the run: another name, another value of the matched field, or failing the if expression", async () => {
    await send(trialStarted.name, "ct_pro");
    await executor.runDue(ctx);
    await send(confirmed.name, "ct_pro", { plan: "pro" });
    await send(upgraded.name, "ct_other", { plan: "pro" });
    await send(upgraded.name, "ct_pro", { plan: "basic" });
    await send(upgraded.name, "ct_pro");
    await executor.runDue(ctx);
    expect(seenBy("ct_pro")).toEqual([]);
    expect(await runOf("wait-upgraded", "ct_pro")).toMatchObject({ status: "pending", waitEvent: upgraded.name });

    const [eventId] = await send(upgraded.name, "ct_pro", { plan: "pro" });
    await executor.runDue(ctx);
    expect(seenBy("ct_pro").map((got) => got?.id)).toEqual([eventId]);
  });

  it("an event sent before the wait began is not seen, as with Inngest: neither one sent before the run started nor one sent by the step before the wait", async () => {
    await send(confirmed.name, "ct_early");
    await send(signedUp.name, "ct_early");
    await send(noted.name, "ct_in_hand");
    await executor.runDue(ctx);
    expect((await runOf("wait-after-step", "ct_in_hand")).waitEvent).toBe(confirmed.name);
    clock.advance(24 * HOUR);
    await executor.runDue(ctx);
    expect(seenBy("ct_early")).toEqual([null]);
    expect(seenBy("ct_in_hand")).toEqual([null]);
  });

  it("a waiting run survives the executor's restart: a new executor resumes one with its event and another at its timeout", async () => {
    await send(signedUp.name, "ct_restart_event");
    await send(signedUp.name, "ct_restart_timeout");
    await executor.runDue(ctx);

    // Nothing of the waits is kept in the process: a new executor (a restarted app) finds them in the database.
    const restarted = createEmbeddedExecutor({ client: inngest, functions });
    const [eventId] = await restarted.enqueue(ctx, [{ name: confirmed.name, data: { contactId: "ct_restart_event" } }]);
    await restarted.runDue(ctx);
    expect(seenBy("ct_restart_event").map((got) => got?.id)).toEqual([eventId]);
    expect(seenBy("ct_restart_timeout")).toEqual([]);
    clock.advance(24 * HOUR);
    await restarted.runDue(ctx);
    expect(seenBy("ct_restart_timeout")).toEqual([null]);
  });

  it("an event whose transaction holds the waiting run when its timeout comes due is not lost: the claim passes the run over, and the event resumes it once committed", async () => {
    await send(signedUp.name, "ct_race");
    await executor.runDue(ctx);
    clock.advance(24 * HOUR);
    let eventId = "";
    await ctx.db.transaction(async (tx) => {
      [eventId] = (await executor.enqueue({ ...ctx, db: tx }, [
        { name: confirmed.name, data: { contactId: "ct_race" } },
      ])) as [string];
      // Due by its timeout, but the row is the event's until it commits.
      expect(await executor.runDue(ctx)).toBe(0);
    });
    await executor.runDue(ctx);
    expect(seenBy("ct_race").map((got) => got?.id)).toEqual([eventId]);
  });

  it("two matching events and two executors at once: the run is resumed once, with one of the events", async () => {
    await send(signedUp.name, "ct_twice");
    await executor.runDue(ctx);
    const other = createEmbeddedExecutor({ client: inngest, functions });
    const ids = (
      await Promise.all([
        send(confirmed.name, "ct_twice"),
        other.enqueue(ctx, [{ name: confirmed.name, data: { contactId: "ct_twice" } }]),
      ])
    ).flat();
    await Promise.all([executor.runDue(ctx), other.runDue(ctx)]);
    await Promise.all([executor.runDue(ctx), other.runDue(ctx)]);
    const got = seenBy("ct_twice");
    expect(got).toHaveLength(1);
    expect(ids).toContain(got[0]!.id);
  });

  it("a wait on an expression the executor cannot read fails its run with the expression, rather than wait on a condition read wrongly", async () => {
    await send(oddWait.name, "ct_odd");
    await executor.runDue(ctx);
    expect(await runOf("wait-odd", "ct_odd")).toMatchObject({
      status: "failed",
      error: "waitForEvent expression not supported by the embedded executor: async.data.plan != 'pro'",
    });
  });
});

describe("waitForEvent conditions", () => {
  const trigger: RunEvent = { id: "ev_1", name: "t", data: { contactId: "ct_1", n: 3 }, ts: 0 };

  it("equalities of the awaited event's fields with the triggering event's fields or literals, joined by &&, become what the event must contain", () => {
    expect(
      readWaitMatch(
        "x",
        "event.data.contactId == async.data.contactId && async.data.n == 3 && true == async.data.ok",
        trigger,
      ),
    ).toEqual({
      event: "x",
      key: 'data.contactId="ct_1"',
      match: { data: { contactId: "ct_1", n: 3, ok: true } },
    });
    expect(readWaitMatch("x", undefined, trigger)).toEqual({ event: "x", key: null, match: {} });
    expect(readWaitMatch("x", `async.data.name == "a \\"b\\""`, trigger)).toMatchObject({
      match: { data: { name: 'a "b"' } },
    });
  });

  it("a field missing from the triggering event compares as null, so the wait matches only events that say null", () => {
    expect(readWaitMatch("x", "event.data.missing == async.data.id", trigger)).toEqual({
      event: "x",
      key: "data.id=null",
      match: { data: { id: null } },
    });
  });

  it("other operators, ||, two awaited fields and object values are refused", () => {
    for (const expression of [
      "async.data.n > 3",
      "async.data.a == 1 || async.data.b == 2",
      "async.data.a == async.data.b",
      "event.data.contactId == event.data.contactId",
      "async.data.a == 1 &&",
      "event.data == async.data.x",
    ])
      expect(readWaitMatch("x", expression, trigger)).toHaveProperty("unsupported");
  });

  it("an arriving event meets one key per scalar field, the index's keys, arrays not entered", () => {
    expect(
      matchKeysOf({
        id: "ev_2",
        name: "y",
        data: { contactId: "ct_1", tags: ["a"], deep: { ok: false } },
        ts: 5,
      }).sort(),
    ).toEqual(['data.contactId="ct_1"', "data.deep.ok=false", 'id="ev_2"', 'name="y"', "ts=5"].sort());
  });
});
