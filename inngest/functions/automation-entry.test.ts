import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import type { AutomationStep } from "@/lib/automations/automation-schemas";
import {
  activateAutomation,
  createAutomation,
  pauseAutomation,
  resumeAutomation,
  setAutomationSteps,
  showAutomation,
} from "@/lib/automations/automations";
import { enterAutomations } from "@/lib/automations/enter-automation";
import { sendAutomationStep } from "@/lib/automations/run-send";
import { resumeWorkspaceSending } from "@/lib/billing/resume-workspace-sending";
import { confirmSubscription } from "@/lib/consent/confirm-subscription";
import { eraseContact } from "@/lib/contacts/erase-contacts";
import { automationEntries, automationSends, contacts } from "@/lib/db/schema";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { smtpTransport } from "@/lib/mail/transports/smtp-transport";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { apiClient } from "@/lib/testing/api-client";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { optOut, seedKey, seedTopic, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { startSmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";

// API calls stamp rows with the real time; the workflow clock starts ahead of it so their runs are due.
const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((events) => executor.enqueue(ctx, events));
});
afterAll(() => setWorkflowCtx(undefined));

const MINUTE = 60_000;
const series: AutomationStep[] = [
  { type: "send", subject: "Series 1 for {{contact.email}}", text: "First mail." },
  { type: "wait", minutes: 60 },
  { type: "send", subject: "Series 2", html: "<p>Second mail from {{brand.name}}.</p>" },
  { type: "wait", minutes: 24 * 60 },
  { type: "send", subject: "Series 3", text: "Third mail." },
];

/** A workspace with an active automation of these steps on a double opt-in topic. */
async function setup(steps: AutomationStep[] = series, options: { sandbox?: boolean } = {}) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  if (!options.sandbox) await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const actor = systemActor("test", workspaceId);
  const { automationId } = await createAutomation(ctx, actor, { name: "Welcome series", topic_id: topicId });
  await setAutomationSteps(ctx, actor, automationId, { steps });
  await activateAutomation(ctx, actor, automationId);
  const form = apiClient((await seedKey(ctx, workspaceId, { kind: "publishable", environment: "live" })).key);
  let token = "";
  const lastToken = () => token;
  /** Subscribes and confirms from the confirmation mail, as the person would; answers the contact's id. */
  const confirm = async (email: string) => {
    await form.post("/v1/subscribe", { topic_id: topicId, email });
    await executor.runDue(ctx);
    const mails = await listMailbox(ctx, actor, { to: email });
    const link = mails.flatMap((m) => m.links).find((l) => l.includes("/confirm/"))!;
    token = link.split("/confirm/")[1]!;
    expect((await confirmSubscription(ctx, token, { ip: null, userAgent: null })).outcome).toBe("confirmed");
    const [contact] = await ctx.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, email)));
    return contact!.id;
  };
  /** The automation's mails to the address, oldest first (the confirmation and welcome mails left out). */
  const seriesTo = async (email: string) =>
    (await listMailbox(ctx, actor, { to: email }))
      .filter((m) => /^(Series|Paused|Retried|Held)/.test(m.subject))
      .reverse();
  const entries = () => ctx.db.select().from(automationEntries).where(eq(automationEntries.automationId, automationId));
  return { workspaceId, topicId, actor, automationId, confirm, lastToken, seriesTo, entries };
}

describe("automations: a person's run through the steps", () => {
  it("while billing pauses the workspace's sending nothing is sent; sending resumed, the held mail goes", async () => {
    const { workspaceId, confirm, seriesTo, entries } = await setup([
      { type: "wait", minutes: 60 },
      { type: "send", subject: "Held by billing", text: "Later." },
    ]);
    await confirm("billing@example.com");
    await executor.runDue(ctx);
    await setBillingStage(ctx, workspaceId, "overdue");
    clock.advance(2 * 60 * MINUTE);
    await executor.runDue(ctx);
    expect(await seriesTo("billing@example.com")).toEqual([]);
    expect((await entries())[0]).toMatchObject({ status: "active", stepIndex: 1 });
    await setBillingStage(ctx, workspaceId, "active");
    await resumeWorkspaceSending(ctx, workspaceId);
    await executor.runDue(ctx);
    expect((await seriesTo("billing@example.com")).map((m) => m.subject)).toEqual(["Held by billing"]);
  });

  it("a confirmed subscription enters the automation once", async () => {
    const { workspaceId, actor, automationId, topicId, confirm, lastToken, entries } = await setup();
    const contactId = await confirm("once@example.com");
    await executor.runDue(ctx);
    // The link visited again (mail scanners do), and the trigger happening again: no second entry.
    expect((await confirmSubscription(ctx, lastToken(), { ip: null, userAgent: null })).outcome).toBe(
      "already_confirmed",
    );
    expect(await enterAutomations(ctx, workspaceId, { topicId, contactId, trigger: "topic_confirmed" })).toEqual({
      entryIds: [],
    });
    await executor.runDue(ctx);
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ contactId, status: "active", stepIndex: 1, enteredAt: expect.any(Date) });
    const shown = await showAutomation(ctx, actor, automationId);
    expect(shown).toMatchObject({ entered: 1, active: 1, completed: 0, exited: {} });
    expect(shown.steps[0]).toMatchObject({ type: "send", sent: 1, waiting: 0 });
    expect(shown.steps[1]).toMatchObject({ type: "wait", waiting: 1 });
  });

  it("each mail of the series is sent once, in order, after its wait", async () => {
    const { actor, automationId, confirm, seriesTo, entries } = await setup();
    await confirm("series@example.com");
    const enteredAt = clock.now().getTime();
    await executor.runDue(ctx);
    expect((await seriesTo("series@example.com")).map((m) => m.subject)).toEqual(["Series 1 for series@example.com"]);

    clock.advance(59 * MINUTE);
    await executor.runDue(ctx);
    expect(await seriesTo("series@example.com")).toHaveLength(1);
    clock.advance(MINUTE);
    await executor.runDue(ctx);
    const second = await seriesTo("series@example.com");
    expect(second.map((m) => m.subject)).toEqual(["Series 1 for series@example.com", "Series 2"]);
    expect(second[1]!.sentAt.getTime()).toBeGreaterThanOrEqual(enteredAt + 60 * MINUTE);
    expect(second[1]!.html).toContain("Second mail from Brand ");

    clock.advance(24 * 60 * MINUTE - MINUTE);
    await executor.runDue(ctx);
    expect(await seriesTo("series@example.com")).toHaveLength(2);
    clock.advance(MINUTE);
    await executor.runDue(ctx);
    clock.advance(7 * 24 * 60 * MINUTE);
    await executor.runDue(ctx);
    const all = await seriesTo("series@example.com");
    expect(all.map((m) => m.subject)).toEqual(["Series 1 for series@example.com", "Series 2", "Series 3"]);
    // Every mail carries the topic's unsubscribe headers and footer, as campaign mail does.
    for (const mail of all) {
      expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(mail.links.some((l) => l.includes("/unsubscribe/"))).toBe(true);
      expect(mail.text).toContain("1 Main Street, Springfield");
    }
    expect((await entries())[0]).toMatchObject({ status: "completed", stepIndex: 5 });
    const shown = await showAutomation(ctx, actor, automationId);
    expect(shown).toMatchObject({ entered: 1, active: 0, completed: 1 });
    expect(shown.steps.filter((s) => s.type === "send").map((s) => s.sent)).toEqual([1, 1, 1]);
  });

  it("an unsubscribe ends the person's run before the next mail", async () => {
    const { actor, automationId, topicId, confirm, seriesTo, entries } = await setup();
    const contactId = await confirm("leaves@example.com");
    await executor.runDue(ctx);
    await optOut(ctx, contactId, topicId);
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    clock.advance(2 * 24 * 60 * MINUTE);
    await executor.runDue(ctx);
    expect((await seriesTo("leaves@example.com")).map((m) => m.subject)).toEqual(["Series 1 for leaves@example.com"]);
    expect((await entries())[0]).toMatchObject({ status: "exited", exitReason: "unsubscribed", stepIndex: 2 });
    expect((await showAutomation(ctx, actor, automationId)).exited).toEqual({ unsubscribed: 1 });
  });

  it("a suppressed address leaves the automation at its next mail, with that reason", async () => {
    const { workspaceId, confirm, seriesTo, entries } = await setup();
    await confirm("bounced@example.com");
    await executor.runDue(ctx);
    await createSuppression(ctx, systemActor("test", workspaceId), { email: "bounced@example.com" });
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect(await seriesTo("bounced@example.com")).toHaveLength(1);
    expect((await entries())[0]).toMatchObject({ status: "exited", exitReason: "suppressed" });
  });

  it("an erased person leaves the automation at the next mail as erased, and a person who opted out of everything as opted_out", async () => {
    const { workspaceId, confirm, entries } = await setup();
    const erased = await confirm("erased@example.com");
    const optedOut = await confirm("everything@example.com");
    await executor.runDue(ctx);
    await eraseContact(ctx, systemActor("test", workspaceId), erased);
    await optOut(ctx, optedOut, "all");
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    const rows = await entries();
    expect(rows.map((r) => [r.contactId, r.status, r.exitReason]).sort()).toEqual(
      [
        [null, "exited", "erased"],
        [optedOut, "exited", "opted_out"],
      ].sort(),
    );
  });

  it("a used merge tag without a value skips that mail, recorded with the tag, and the run goes on", async () => {
    const { actor, automationId, confirm, seriesTo, entries } = await setup([
      { type: "send", subject: "Series A for {{contact.first_name}}", text: "Hi." },
      { type: "send", subject: "Series B", text: "Hello." },
    ]);
    await confirm("noname@example.com");
    await executor.runDue(ctx);
    expect((await seriesTo("noname@example.com")).map((m) => m.subject)).toEqual(["Series B"]);
    expect((await entries())[0]).toMatchObject({ status: "completed" });
    const shown = await showAutomation(ctx, actor, automationId);
    expect(shown.steps[0]).toMatchObject({ sent: 0, skipped: { "missing_merge_tag:contact.first_name": 1 } });
  });

  it("in the sandbox, a mail to an address that is not verified is skipped as recipient_not_verified, as a campaign's", async () => {
    const { actor, automationId, confirm, seriesTo, entries } = await setup(
      [{ type: "send", subject: "Series sandboxed", text: "Hi." }],
      { sandbox: true },
    );
    await confirm("stranger@example.com");
    await executor.runDue(ctx);
    expect(await seriesTo("stranger@example.com")).toEqual([]);
    expect((await entries())[0]).toMatchObject({ status: "completed" });
    expect((await showAutomation(ctx, actor, automationId)).steps[0]).toMatchObject({
      sent: 0,
      skipped: { recipient_not_verified: 1 },
    });
  });

  it("a retried send step does not mail twice", async () => {
    const { confirm, seriesTo, entries } = await setup([
      { type: "wait", minutes: 60 },
      { type: "send", subject: "Retried", text: "Once." },
    ]);
    await confirm("retry@example.com");
    await executor.runDue(ctx);
    const [entry] = await entries();
    // The run's send step, reached (the wait over) and run twice over SMTP, which cannot drop a repeat by itself: one mail reaches the server.
    await ctx.db.update(automationEntries).set({ stepIndex: 1 }).where(eq(automationEntries.id, entry!.id));
    const capture = await startSmtpCapture();
    const smtp = smtpTransport({ url: capture.url });
    try {
      expect(await sendAutomationStep(ctx, smtp, entry!.id, 1)).toEqual({
        outcome: "sent",
        position: { completed: true },
      });
      // The send was the last step: it completed the entry, so the retry finds the entry ended and mails nothing.
      expect(await sendAutomationStep(ctx, smtp, entry!.id, 1)).toEqual({ outcome: "ended" });
      expect(capture.received).toHaveLength(1);
    } finally {
      await smtp.close();
      await capture.close();
    }
    // The run itself reaches the step later and finds it done.
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect(await seriesTo("retry@example.com")).toEqual([]);
    expect(await ctx.db.select().from(automationSends).where(eq(automationSends.entryId, entry!.id))).toHaveLength(1);
    expect((await entries())[0]).toMatchObject({ status: "completed" });
  });

  it("a paused automation sends nothing until resumed", async () => {
    const { actor, automationId, confirm, seriesTo, entries } = await setup([
      { type: "wait", minutes: 60 },
      { type: "send", subject: "Paused 1", text: "After the pause." },
      { type: "wait", minutes: 60 },
      { type: "send", subject: "Paused 2", text: "Later." },
    ]);
    await confirm("held@example.com");
    await executor.runDue(ctx);
    await pauseAutomation(ctx, actor, automationId);
    clock.advance(3 * 24 * 60 * MINUTE);
    await executor.runDue(ctx);
    expect(await seriesTo("held@example.com")).toEqual([]);
    expect((await entries())[0]).toMatchObject({ status: "active", stepIndex: 1 });
    expect((await showAutomation(ctx, actor, automationId)).steps[1]).toMatchObject({ waiting: 1, sent: 0 });
    // Nobody enters a paused automation.
    await confirm("late@example.com");
    await executor.runDue(ctx);
    expect(await entries()).toHaveLength(1);

    await resumeAutomation(ctx, actor, automationId);
    await executor.runDue(ctx);
    expect((await seriesTo("held@example.com")).map((m) => m.subject)).toEqual(["Paused 1"]);
    clock.advance(60 * MINUTE);
    await executor.runDue(ctx);
    expect((await seriesTo("held@example.com")).map((m) => m.subject)).toEqual(["Paused 1", "Paused 2"]);
  });
});
