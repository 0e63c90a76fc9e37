import { Readable } from "node:stream";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { scheduleCrons } from "@/inngest/embedded/crons";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor, userActor } from "@/lib/actor";
import { scheduleCampaign, sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import {
  billingInvoices,
  campaigns,
  contacts,
  importRows,
  mailMessages,
  memberships,
  sends,
  users,
  workspaceBilling,
} from "@/lib/db/schema";
import { DEFAULT_GUARDRAIL_THRESHOLDS } from "@/lib/deliverability/guardrail-schemas";
import { setGuardrailThresholds } from "@/lib/deliverability/guardrail-thresholds";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { checkImport } from "@/lib/imports/check-import";
import { checkImportSchema } from "@/lib/imports/import-schemas";
import { receiveImport } from "@/lib/imports/receive-import";
import { apiClient } from "@/lib/testing/api-client";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

import { getBillingOrThrow } from "./get-billing";
import { issueInvoice, recordPaymentFailed, settleInvoice } from "./invoices";
import { cancelPlan, pauseLadderClock, resumeLadderClock } from "./plan-changes";
import { DAY_MS, TRIAL_DAYS } from "./plan-defaults";

// API calls stamp rows with the real time; the workflow clock starts ahead of it so their runs are due.
const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(async () => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
  // Only the trial cron: the daily domain recheck would find this test's domains missing from DNS.
  await scheduleCrons(
    ctx,
    executor.registry.filter((fn) => fn.slug.endsWith("billing-end-trials")),
  );
});
afterAll(() => setWorkflowCtx(undefined));

const days = (n: number) => n * DAY_MS;
async function passDays(n: number) {
  clock.advance(days(n));
  await executor.runDue(ctx);
}

/** A paying workspace ready to send, with `people` subscribers of one topic, and its first invoice paid. */
async function payingWorkspace(people = 3) {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  for (let i = 0; i < people; i++) await upsertContact(ctx, actor, { email: `p${i}@example.com`, topicIds: [topicId] });
  await settleInvoice(ctx, (await issueInvoice(ctx, { workspaceId, amount: 7900, plan: "growth" })).id);
  const [owner] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ownerUserId));
  const campaign = async (name = "News") =>
    (await createCampaign(ctx, actor, { brandId, topicId, name, subject: "Hi", html: "<p>Hi</p>" })).campaignId;
  return { workspaceId, brandId, topicId, actor, ownerUserId, ownerEmail: owner!.email, campaign };
}

const stageOf = async (workspaceId: string) =>
  (
    await ctx.db
      .select({ stage: workspaceBilling.stage })
      .from(workspaceBilling)
      .where(eq(workspaceBilling.workspaceId, workspaceId))
  )[0]!.stage;
const ownerMail = (to: string) =>
  ctx.db
    .select({ subject: mailMessages.subject, text: mailMessages.raw })
    .from(mailMessages)
    .where(eq(mailMessages.toAddress, to))
    .orderBy(asc(mailMessages.id));
const acceptedSends = async (campaignId: string) =>
  (
    await ctx.db
      .select({ n: count() })
      .from(sends)
      .where(and(eq(sends.campaignId, campaignId), eq(sends.state, "accepted")))
  )[0]!.n;

/** A failed payment now, on a fresh invoice. */
async function failPayment(workspaceId: string) {
  const invoice = await issueInvoice(ctx, { workspaceId, amount: 7900 });
  await recordPaymentFailed(ctx, invoice.id);
  await executor.runDue(ctx);
  return invoice;
}

describe("billing ladder", () => {
  it("a failed payment walks overdue → read-only → deletion scheduled → deleted, one mail per step, data removed and invoices kept", async () => {
    const w = await payingWorkspace();
    await failPayment(w.workspaceId);
    expect(await stageOf(w.workspaceId)).toBe("overdue");
    expect((await ownerMail(w.ownerEmail)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Payment failed for .*: sending is paused$/),
    ]);

    await passDays(6);
    expect(await stageOf(w.workspaceId)).toBe("overdue");
    await passDays(1);
    expect(await stageOf(w.workspaceId)).toBe("read_only");
    await passDays(59);
    expect(await stageOf(w.workspaceId)).toBe("read_only");
    await passDays(1);
    expect(await stageOf(w.workspaceId)).toBe("deletion_scheduled");
    const deletionDate = new Date(clock.now().getTime() + days(30));
    for (let week = 0; week < 4; week++) await passDays(7);
    expect(await stageOf(w.workspaceId)).toBe("deletion_scheduled");
    await passDays(2);
    expect(await stageOf(w.workspaceId)).toBe("deleted");

    const subjects = (await ownerMail(w.ownerEmail)).map((m) => m.subject);
    const dated = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(deletionDate);
    expect(subjects).toEqual([
      expect.stringMatching(/sending is paused$/),
      expect.stringMatching(/is now read-only$/),
      expect.stringMatching(new RegExp(`^Workspace .* will be deleted on ${dated}$`)),
      ...Array.from({ length: 4 }, () =>
        expect.stringMatching(new RegExp(`^Reminder: .* will be deleted on ${dated}$`)),
      ),
      expect.stringMatching(/was deleted$/),
    ]);
    expect(await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, w.workspaceId))).toEqual([]);
    const invoices = await ctx.db.select().from(billingInvoices).where(eq(billingInvoices.workspaceId, w.workspaceId));
    expect(invoices.map((invoice) => invoice.status).sort()).toEqual(["failed", "paid"]);
    expect(await ctx.db.select().from(memberships).where(eq(memberships.workspaceId, w.workspaceId))).toHaveLength(1);
  });

  it("deletion removes every row the workspace had except the workspace, its members, billing, invoices and notices", async () => {
    const w = await payingWorkspace(5);
    await sendCampaignNow(ctx, w.actor, await w.campaign());
    await executor.runDue(ctx);
    await seedKey(ctx, w.workspaceId);
    await setGuardrailThresholds(ctx, w.actor, { ...DEFAULT_GUARDRAIL_THRESHOLDS, minimumDelivered: 100 });
    // A dry-run import: its rows carry no workspace of their own.
    const owner = userActor(w.ownerUserId, w.workspaceId);
    const { importId } = await receiveImport(ctx, owner, {
      fileName: "people.csv",
      body: Readable.from([Buffer.from("email\nq1@example.com\nq2@example.com\n")]),
    });
    await checkImport(ctx, owner, importId, checkImportSchema.parse({ mapping: ["email"] }));
    expect(await ctx.db.$count(importRows, eq(importRows.importId, importId))).toBe(2);
    await failPayment(w.workspaceId);
    for (const days of [7, 60, 30]) await passDays(days);
    expect(await stageOf(w.workspaceId)).toBe("deleted");
    const kept = new Set([
      "workspaces",
      "memberships",
      "workspace_billing",
      "billing_invoices",
      "billing_notices",
      "api_keys",
    ]);
    const tables = await ctx.db.execute<{ table_name: string }>(sql`
      select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'workspace_id' order by table_name`);
    const left: Record<string, number> = {};
    for (const { table_name } of tables) {
      if (kept.has(table_name)) continue;
      const [row] = await ctx.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(table_name)} where workspace_id = ${w.workspaceId}`,
      );
      if (Number(row!.n) > 0) left[table_name] = Number(row!.n);
    }
    expect(left).toEqual({});
    expect(await ctx.db.$count(importRows, eq(importRows.importId, importId))).toBe(0);
    expect((await getBillingOrThrow(ctx, w.actor)).invoices).toHaveLength(2);
  });

  for (const [stage, walk] of [
    ["overdue", [1]],
    ["read_only", [8]],
    ["deletion_scheduled", [7, 63]],
  ] as const) {
    it(`settling the invoice in ${stage} makes the workspace active at once and resumes sending, a scheduled campaign whose time passed included`, async () => {
      const w = await payingWorkspace();
      const invoice = await failPayment(w.workspaceId);
      const running = await w.campaign("Running");
      await sendCampaignNow(ctx, w.actor, running);
      const scheduled = await w.campaign("Scheduled");
      await scheduleCampaign(ctx, w.actor, scheduled, new Date(clock.now().getTime() + 60 * 60_000));
      for (const days of walk) await passDays(days);
      expect(await stageOf(w.workspaceId)).toBe(stage);
      expect(await acceptedSends(running)).toBe(0);
      expect(await acceptedSends(scheduled)).toBe(0);
      // Paused sending takes no audience and spends no allowance: settling takes them at the rates then.
      expect(
        (
          await ctx.db
            .select({ n: count() })
            .from(sends)
            .where(inArray(sends.campaignId, [running, scheduled]))
        )[0]!.n,
      ).toBe(0);
      expect((await getBillingOrThrow(ctx, w.actor)).sendsUsed).toBe(0);

      await settleInvoice(ctx, invoice.id);
      expect(await stageOf(w.workspaceId)).toBe("active");
      // Settlement cancels the episode's ladder run (cancelOn): it takes no further step.
      const ladderRuns = await ctx.db.execute<{ status: string }>(sql`
        select status from workflow_runs where function_id like '%billing-ladder' and event->'data'->>'workspaceId' = ${w.workspaceId}`);
      expect([...ladderRuns].map((run) => run.status)).toEqual(["cancelled"]);
      await executor.runDue(ctx);
      expect(await acceptedSends(running)).toBe(3);
      expect(await acceptedSends(scheduled)).toBe(3);
      const before = (await ownerMail(w.ownerEmail)).length;
      await passDays(100);
      expect(await stageOf(w.workspaceId)).toBe("active");
      expect(await ownerMail(w.ownerEmail)).toHaveLength(before);
    });
  }

  it("a failed payment stops a campaign in flight at the next batch; settling sends the rest", async () => {
    const w = await payingWorkspace(6);
    // Batches of two, a minute apart on the test clock: each runDue sends one batch.
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "2", DISPATCH_BATCH_PAUSE_MS: "60000" });
    try {
      const campaignId = await w.campaign();
      await sendCampaignNow(ctx, w.actor, campaignId);
      await executor.runDue(ctx);
      expect(await acceptedSends(campaignId)).toBe(2);
      const invoice = await failPayment(w.workspaceId);
      clock.advance(60_000);
      await executor.runDue(ctx);
      expect(await acceptedSends(campaignId)).toBe(2);
      const [campaign] = await ctx.db
        .select({ status: campaigns.status })
        .from(campaigns)
        .where(eq(campaigns.id, campaignId));
      expect(campaign!.status).toBe("sending");
      await settleInvoice(ctx, invoice.id);
      for (let batch = 0; batch < 4; batch++) {
        await executor.runDue(ctx);
        clock.advance(60_000);
      }
      expect(await acceptedSends(campaignId)).toBe(6);
    } finally {
      reloadEnv();
    }
  });

  it("a paused clock pushes every later stage by the time it was paused", async () => {
    const w = await payingWorkspace();
    await failPayment(w.workspaceId);
    await passDays(3);
    await pauseLadderClock(ctx, w.workspaceId);
    await passDays(10);
    expect(await stageOf(w.workspaceId)).toBe("overdue");
    expect((await getBillingOrThrow(ctx, w.actor)).clockPausedSince).not.toBeNull();
    await resumeLadderClock(ctx, w.workspaceId);
    const readOnlyAt = (await getBillingOrThrow(ctx, w.actor)).upcoming[0]!;
    expect(readOnlyAt).toEqual({ stage: "read_only", at: new Date(clock.now().getTime() + days(4)) });
    await passDays(3);
    expect(await stageOf(w.workspaceId)).toBe("overdue");
    await passDays(1);
    expect(await stageOf(w.workspaceId)).toBe("read_only");
  });

  it("a cancelled plan stays active until the end of its paid period, then walks from read-only", async () => {
    const w = await payingWorkspace();
    const paidThrough = (await getBillingOrThrow(ctx, w.actor)).paidThrough!;
    await cancelPlan(ctx, w.actor);
    await executor.runDue(ctx);
    expect(await stageOf(w.workspaceId)).toBe("active");
    expect((await getBillingOrThrow(ctx, w.actor)).upcoming[0]).toEqual({ stage: "read_only", at: paidThrough });
    clock.set(new Date(paidThrough.getTime() - 1000));
    await executor.runDue(ctx);
    expect(await stageOf(w.workspaceId)).toBe("active");
    await passDays(1);
    expect(await stageOf(w.workspaceId)).toBe("read_only");
    expect((await ownerMail(w.ownerEmail)).map((m) => m.text).join("\n")).toContain("the plan was cancelled");
    await passDays(60);
    expect(await stageOf(w.workspaceId)).toBe("deletion_scheduled");
  });

  it("a trial that ends without a plan makes the workspace read-only; paying makes it active", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    expect(await stageOf(workspaceId)).toBe("trial");
    await passDays(TRIAL_DAYS - 1);
    expect(await stageOf(workspaceId)).toBe("trial");
    await passDays(1);
    expect(await stageOf(workspaceId)).toBe("read_only");
    const invoice = await issueInvoice(ctx, { workspaceId, amount: 1500, plan: "starter" });
    await settleInvoice(ctx, invoice.id);
    const billing = await getBillingOrThrow(ctx, systemActor("test", workspaceId));
    expect(billing).toMatchObject({ stage: "active", plan: { id: "starter" }, sendAllowance: 10_000, upcoming: [] });
  });

  it("the trial is per person: a second workspace starts read-only until a plan is chosen", async () => {
    const owner = `twice-${Date.now()}@example.com`;
    const first = await createWorkspace(ctx, { name: "First", ownerEmail: owner });
    const second = await createWorkspace(ctx, { name: "Second", ownerEmail: owner });
    expect(await stageOf(first.workspaceId)).toBe("trial");
    expect(await stageOf(second.workspaceId)).toBe("read_only");
    await settleInvoice(
      ctx,
      (await issueInvoice(ctx, { workspaceId: second.workspaceId, amount: 1500, plan: "starter" })).id,
    );
    expect(await stageOf(second.workspaceId)).toBe("active");
  });

  it("team_inactive: overdue still takes API writes, read-only and deletion scheduled refuse writes and keep reads, deleted refuses everything", async () => {
    const w = await payingWorkspace();
    const api = apiClient((await seedKey(ctx, w.workspaceId)).key);
    const answer = async (call: Promise<{ status: number; body: { error?: { type: string; code: string } } }>) => {
      const { status, body } = await call;
      return status < 300 ? status : `${status} ${body.error?.type} ${body.error?.code}`;
    };
    const write = () => answer(api.post("/v1/contacts", { email: `x${Math.random()}@example.com` }));
    const read = () => answer(api.get("/v1/contacts"));
    const refused = "403 permission_error team_inactive";
    await failPayment(w.workspaceId);
    expect([await write(), await read()]).toEqual([201, 200]);
    await passDays(7);
    expect([await write(), await read()]).toEqual([refused, 200]);
    await passDays(60);
    expect(await stageOf(w.workspaceId)).toBe("deletion_scheduled");
    expect([await write(), await read()]).toEqual([refused, 200]);
    await passDays(30);
    expect([await write(), await read()]).toEqual([refused, refused]);
  });

  it("a stage reached late keeps its full length: a plan cancelled long after its paid period is read-only now, and its deletion comes a full notice after the dated notice", async () => {
    const w = await payingWorkspace();
    clock.advance(days(130));
    await cancelPlan(ctx, w.actor);
    await executor.runDue(ctx);
    expect(await stageOf(w.workspaceId)).toBe("read_only");
    expect((await getBillingOrThrow(ctx, w.actor)).upcoming[0]).toEqual({
      stage: "deletion_scheduled",
      at: new Date(clock.now().getTime() + days(60)),
    });
    // The app was down for 50 days past the deletion notice's date: the notice goes out late and the deletion stays 30 days after it.
    clock.advance(days(110));
    await executor.runDue(ctx);
    expect(await stageOf(w.workspaceId)).toBe("deletion_scheduled");
    expect((await getBillingOrThrow(ctx, w.actor)).upcoming).toEqual([
      { stage: "deleted", at: new Date(clock.now().getTime() + days(30)) },
    ]);
    const subjects = (await ownerMail(w.ownerEmail)).map((m) => m.subject);
    expect(subjects).toEqual([
      expect.stringMatching(/is now read-only$/),
      expect.stringMatching(/will be deleted on /),
    ]);
  });

  it("a payment that fails while a cancellation is pending stops sending at once", async () => {
    const w = await payingWorkspace();
    await cancelPlan(ctx, w.actor);
    await failPayment(w.workspaceId);
    expect(await stageOf(w.workspaceId)).toBe("overdue");
  });

  it("settling an old invoice keeps a pending cancellation; paying for a new period withdraws it", async () => {
    const w = await payingWorkspace();
    const old = await issueInvoice(ctx, {
      workspaceId: w.workspaceId,
      amount: 7900,
      periodStart: new Date(clock.now().getTime() - days(5)),
      periodEnd: clock.now(),
    });
    await recordPaymentFailed(ctx, old.id);
    await cancelPlan(ctx, w.actor);
    await settleInvoice(ctx, old.id);
    await executor.runDue(ctx);
    expect(await getBillingOrThrow(ctx, w.actor)).toMatchObject({
      stage: "active",
      cancelAtPeriodEnd: true,
      upcoming: [{ stage: "read_only" }, { stage: "deletion_scheduled" }, { stage: "deleted" }],
    });
    await settleInvoice(ctx, (await issueInvoice(ctx, { workspaceId: w.workspaceId, amount: 7900 })).id);
    expect(await getBillingOrThrow(ctx, w.actor)).toMatchObject({
      stage: "active",
      cancelAtPeriodEnd: false,
      upcoming: [],
    });
  });

  it("a read-only workspace without a plan stays read-only when a payment fails", async () => {
    const owner = `second-${Date.now()}@example.com`;
    await createWorkspace(ctx, { name: "First", ownerEmail: owner });
    const { workspaceId } = await createWorkspace(ctx, { name: "Second", ownerEmail: owner });
    await failPayment(workspaceId);
    expect(await stageOf(workspaceId)).toBe("read_only");
  });

  it("a period paid ahead begins at its date: the allowance's count starts again then, not at payment", async () => {
    const w = await payingWorkspace();
    await ctx.db
      .update(workspaceBilling)
      .set({ sendsUsed: 900 })
      .where(eq(workspaceBilling.workspaceId, w.workspaceId));
    const ahead = await issueInvoice(ctx, { workspaceId: w.workspaceId, amount: 7900 });
    expect(ahead.periodStart.getTime()).toBeGreaterThan(clock.now().getTime());
    await settleInvoice(ctx, ahead.id);
    expect((await getBillingOrThrow(ctx, w.actor)).sendsUsed).toBe(900);
    clock.set(new Date(ahead.periodStart.getTime() + 60 * 60_000));
    await executor.runDue(ctx);
    expect(await getBillingOrThrow(ctx, w.actor)).toMatchObject({ sendsUsed: 0, periodStartedAt: ahead.periodStart });
  });

  it("the allowance is enforced at reservation: recipients past it fail with over_allowance and are not counted", async () => {
    const w = await payingWorkspace(5);
    await ctx.db
      .update(workspaceBilling)
      .set({ sendAllowance: 3, sendsUsed: 1 })
      .where(eq(workspaceBilling.workspaceId, w.workspaceId));
    const campaignId = await w.campaign();
    await sendCampaignNow(ctx, w.actor, campaignId);
    await executor.runDue(ctx);
    expect(await acceptedSends(campaignId)).toBe(2);
    const failed = await ctx.db
      .select({ reason: sends.failureReason })
      .from(sends)
      .where(and(eq(sends.campaignId, campaignId), eq(sends.state, "failed")));
    expect(failed).toEqual([{ reason: "over_allowance" }, { reason: "over_allowance" }, { reason: "over_allowance" }]);
    expect((await getBillingOrThrow(ctx, w.actor)).sendsUsed).toBe(3);
  });

  it("the currency is fixed at workspace creation and on every invoice", async () => {
    const { workspaceId } = await createWorkspace(ctx, {
      name: "Euro",
      ownerEmail: `eur-${Date.now()}@example.com`,
      currency: "eur",
    });
    const invoice = await issueInvoice(ctx, { workspaceId, amount: 7500, plan: "growth" });
    expect(invoice.currency).toBe("eur");
    expect((await getBillingOrThrow(ctx, systemActor("test", workspaceId))).currency).toBe("eur");
    const stored = await ctx.db
      .select({ currency: billingInvoices.currency })
      .from(billingInvoices)
      .where(inArray(billingInvoices.workspaceId, [workspaceId]));
    expect(stored).toEqual([{ currency: "eur" }]);
  });
});
