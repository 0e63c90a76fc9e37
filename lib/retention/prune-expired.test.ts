import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import {
  events,
  mailMessages,
  providerEvents,
  rateLimitWindows,
  reportActivity,
  suppressions,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  workflowRuns,
} from "@/lib/db/schema";
import { parseEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { pruneExpired } from "./prune-expired";

const { ctx } = testCtx(new Date("2027-06-01T00:00:00.000Z"));
const daysAgo = (days: number) => new Date(ctx.clock.now().getTime() - days * 86_400_000);
const ids = async <T extends { id: string }>(rows: Promise<T[]>) => (await rows).map((row) => row.id).sort();

describe("retention", () => {
  it("prunes each kind past its age and keeps pending work, recent rows and the evidence a suppression cites", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    const run = (status: "pending" | "completed" | "failed" | "cancelled", age: number) => {
      const id = newId("run");
      return {
        id,
        functionId: "mailservice-test",
        event: { id: `ev-${id}`, name: "test/x", data: {}, ts: 0 },
        status,
        wakeAt: daysAgo(age),
        updatedAt: daysAgo(age),
        createdAt: daysAgo(age),
      };
    };
    const runs = {
      oldDone: run("completed", 31),
      oldCancelled: run("cancelled", 40),
      newDone: run("completed", 29),
      failedRecent: run("failed", 60),
      failedOld: run("failed", 91),
      pendingOld: run("pending", 200),
    };
    await ctx.db.insert(workflowRuns).values(Object.values(runs));

    const [endpoint] = await ctx.db
      .insert(webhookEndpoints)
      .values({ id: newId("wh"), workspaceId, url: "https://hooks.example.com/in", signingSecret: "whsec_x" })
      .returning();
    const delivery = async (status: "pending" | "succeeded" | "failed", age: number) => {
      const [event] = await ctx.db
        .insert(events)
        .values({
          id: newId("evt"),
          workspaceId,
          type: "contact.created",
          data: {},
          occurredAt: daysAgo(age),
          createdAt: daysAgo(age),
        })
        .returning();
      const [row] = await ctx.db
        .insert(webhookDeliveries)
        .values({
          id: newId("whd"),
          workspaceId,
          endpointId: endpoint!.id,
          eventId: event!.id,
          status,
          orderKey: "k",
          createdAt: daysAgo(age),
        })
        .returning();
      await ctx.db
        .insert(webhookAttempts)
        .values({ id: newId("wha"), deliveryId: row!.id, attemptedAt: daysAgo(age), statusCode: 200 });
      return row!.id;
    };
    const deliveries = {
      oldSucceeded: await delivery("succeeded", 31),
      oldGaveUp: await delivery("failed", 45),
      recent: await delivery("succeeded", 2),
      pendingOld: await delivery("pending", 60),
    };

    await ctx.db.insert(rateLimitWindows).values([
      { keyId: "key_old", bucket: "subscribe", windowStart: daysAgo(2), count: 3 },
      { keyId: "key_now", bucket: "subscribe", windowStart: daysAgo(0), count: 3 },
    ]);
    const message = (age: number) => ({
      id: newId("msg"),
      workspaceId,
      idempotencyKey: newId("msg"),
      toAddress: "a@example.com",
      fromAddress: "b@example.com",
      subject: "s",
      messageId: "<m>",
      raw: "r",
      createdAt: daysAgo(age),
    });
    const messages = { old: message(31), recent: message(3) };
    await ctx.db.insert(mailMessages).values(Object.values(messages));

    const report = (state: "applied" | "failed", age: number) => ({
      id: newId("pev"),
      provider: "resend" as const,
      providerEventId: newId("pev"),
      raw: "{}",
      workspaceId,
      state,
      receivedAt: daysAgo(age),
    });
    const reports = {
      old: report("applied", 91),
      cited: report("applied", 120),
      failedOld: report("failed", 120),
      recent: report("applied", 10),
    };
    await ctx.db.insert(providerEvents).values(Object.values(reports));
    await ctx.db.insert(suppressions).values({
      id: newId("sup"),
      workspaceId,
      email: "bounced@example.com",
      reason: "bounce",
      evidenceEventId: reports.cited.id,
      createdAt: daysAgo(120),
    });

    // Activity rollups: the exact instants go a day after the 30 at which reports stop reading them;
    // the minute and day grains that hold the same counts stay.
    const rollup = (grain: "d" | "m" | "x", age: number) => ({
      workspaceId,
      grain,
      bucketAt: daysAgo(age),
      brandId: "",
      contactsAdded: 1,
    });
    await ctx.db
      .insert(reportActivity)
      .values([rollup("x", 32), rollup("m", 32), rollup("d", 32), rollup("x", 30.5), rollup("x", 29)]);

    const pruned = await pruneExpired(ctx, parseEnv({}));
    expect(pruned).toEqual({
      workflowRuns: 3,
      webhookDeliveries: 2,
      rateLimitWindows: 1,
      mailboxMessages: 1,
      providerEvents: 1,
      exactRollups: 1,
    });
    expect(
      (
        await ctx.db
          .select({ grain: reportActivity.grain, at: reportActivity.bucketAt })
          .from(reportActivity)
          .where(eq(reportActivity.workspaceId, workspaceId))
      )
        .map((row) => `${row.grain} ${row.at.toISOString()}`)
        .sort(),
    ).toEqual(
      [
        `d ${daysAgo(32).toISOString()}`,
        `m ${daysAgo(32).toISOString()}`,
        `x ${daysAgo(30.5).toISOString()}`,
        `x ${daysAgo(29).toISOString()}`,
      ].sort(),
    );
    const runIds = Object.values(runs).map((r) => r.id);
    expect(
      await ids(ctx.db.select({ id: workflowRuns.id }).from(workflowRuns).where(inArray(workflowRuns.id, runIds))),
    ).toEqual([runs.newDone.id, runs.failedRecent.id, runs.pendingOld.id].sort());
    expect(
      await ids(
        ctx.db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(inArray(webhookDeliveries.id, Object.values(deliveries))),
      ),
    ).toEqual([deliveries.recent, deliveries.pendingOld].sort());
    expect(
      await ctx.db
        .select({ id: webhookAttempts.id })
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, [deliveries.oldSucceeded, deliveries.oldGaveUp])),
    ).toEqual([]);
    expect((await ctx.db.select({ key: rateLimitWindows.keyId }).from(rateLimitWindows)).map((row) => row.key)).toEqual(
      ["key_now"],
    );
    expect(
      await ids(
        ctx.db
          .select({ id: mailMessages.id })
          .from(mailMessages)
          .where(inArray(mailMessages.id, [messages.old.id, messages.recent.id])),
      ),
    ).toEqual([messages.recent.id]);
    expect(await ids(ctx.db.select({ id: providerEvents.id }).from(providerEvents))).toEqual(
      [reports.cited.id, reports.failedOld.id, reports.recent.id].sort(),
    );
    expect(await pruneExpired(ctx, parseEnv({}))).toEqual({
      workflowRuns: 0,
      webhookDeliveries: 0,
      rateLimitWindows: 0,
      mailboxMessages: 0,
      providerEvents: 0,
      exactRollups: 0,
    });
  });

  it("ages are configuration", async () => {
    const id = newId("run");
    await ctx.db.insert(workflowRuns).values({
      id,
      functionId: "mailservice-test",
      event: { id: `ev-${id}`, name: "test/x", data: {}, ts: 0 },
      status: "completed",
      wakeAt: daysAgo(5),
      updatedAt: daysAgo(5),
    });
    const left = async () =>
      (
        await ctx.db
          .select({ id: workflowRuns.id })
          .from(workflowRuns)
          .where(inArray(workflowRuns.id, [id]))
      ).length;
    await pruneExpired(ctx, parseEnv({}));
    expect(await left()).toBe(1);
    await pruneExpired(ctx, parseEnv({ RETENTION_WORKFLOW_RUNS_DAYS: "4" }));
    expect(await left()).toBe(0);
  });
});
