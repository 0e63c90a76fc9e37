import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { automationEntries, automationSends, mailMessages, workspaceBilling } from "@/lib/db/schema";
import { localTransport } from "@/lib/mail/transports/local-transport";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";
import { smtpTransport } from "@/lib/mail/transports/smtp-transport";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { startSmtpCapture, type SmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";

import { automationSendId } from "./automation-mail-events";
import { activateAutomation, createAutomation, setAutomationSteps } from "./automations";
import { enterAutomations } from "./enter-automation";
import { moveEntry } from "./run-entry";
import { sendAutomationStep } from "./run-send";

// A send step across a kill: the step's `sending` mark is committed before the hand-over, and a retry
// that finds it decides by what the transport can do with a repeat. The first attempt is "killed" by a
// transport that never answers: its promise is left pending, as a dead process leaves its step, and
// everything it committed stays. The SMTP peer is a real server on loopback.
const { ctx } = testCtx();
let capture: SmtpCapture;
let smtp: MailTransport;
beforeAll(async () => {
  capture = await startSmtpCapture();
  smtp = smtpTransport({ url: capture.url });
});
afterAll(async () => {
  await smtp.close();
  await capture.close();
});

/** A subscribed person entered into a one-mail automation; the entry is at its send step. */
async function atSendStep(email: string) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  const { automationId } = await createAutomation(ctx, actor, { name: "Series", topic_id: topicId });
  await setAutomationSteps(ctx, actor, automationId, { steps: [{ type: "send", subject: "Step one", text: "One." }] });
  await activateAutomation(ctx, actor, automationId);
  const { contact } = await upsertContact(ctx, actor, { email, topicIds: [topicId] });
  // The subscription made without confirmation enters them (topic_confirmed); entering again is a no-op.
  await enterAutomations(ctx, workspaceId, { topicId, contactId: contact.id, trigger: "topic_confirmed" });
  const [entered] = await ctx.db
    .select({ id: automationEntries.id })
    .from(automationEntries)
    .where(eq(automationEntries.automationId, automationId));
  const entryId = entered!.id;
  const sendId = automationSendId(entryId, 0);
  const row = async () =>
    (await ctx.db.select().from(automationSends).where(eq(automationSends.id, sendId)))[0] ?? null;
  const entry = async () =>
    (await ctx.db.select().from(automationEntries).where(eq(automationEntries.id, entryId)))[0]!;
  const sendsUsed = async () =>
    (
      await ctx.db
        .select({ used: workspaceBilling.sendsUsed })
        .from(workspaceBilling)
        .where(eq(workspaceBilling.workspaceId, workspaceId))
    )[0]?.used;
  return { entryId, sendId, row, entry, sendsUsed };
}

/** Waits (polling, without a deadline of its own) until `ready` holds. */
async function until(ready: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const deliveredTo = (email: string) => capture.received.filter((m) => m.to.includes(email)).length;
const never = () => new Promise<never>(() => {});

describe("an automation's send step is handed over once across a kill", () => {
  it("through SMTP, a retry that finds the step's sending mark hands nothing over again: the mail accepted before the kill is the only one, recorded as sent", async () => {
    const email = "accepted-then-killed@example.com";
    const { entryId, row, entry, sendsUsed } = await atSendStep(email);
    const usedBefore = await sendsUsed();
    // The server accepts the mail, then the process dies before recordSend commits.
    const dying: MailTransport = {
      ...smtp,
      send: async (c, message) => {
        await smtp.send(c, message);
        return never();
      },
    };
    void sendAutomationStep(ctx, dying, entryId, 0);
    await until(() => deliveredTo(email) === 1);
    expect((await row())!.status).toBe("sending");

    expect(await sendAutomationStep(ctx, smtp, entryId, 0)).toEqual({ outcome: "sent_unconfirmed" });
    expect(deliveredTo(email)).toBe(1);
    expect((await row())!.status).toBe("sent");
    expect((await entry()).stepIndex).toBe(1);
    // Reserved once, by the attempt that committed the mark.
    expect(await sendsUsed()).toBe((usedBefore ?? 0) + 1);
    expect(await sendAutomationStep(ctx, smtp, entryId, 0)).toEqual({ outcome: "already" });
    expect(deliveredTo(email)).toBe(1);
  });

  it("through a transport that drops a repeat of the send id (local), a retry that finds the mark hands the mail over again: a kill before the hand-over loses no mail", async () => {
    const email = "killed-before-handover@example.com";
    const { sendId, entryId, row, entry } = await atSendStep(email);
    const local = localTransport();
    void sendAutomationStep(ctx, { ...local, send: never }, entryId, 0);
    await until(async () => (await row())?.status === "sending");

    expect(await sendAutomationStep(ctx, local, entryId, 0)).toEqual({
      outcome: "sent",
      position: { completed: true },
    });
    const stored = await ctx.db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, sendId));
    expect(stored).toHaveLength(1);
    expect((await row())!).toMatchObject({ status: "sent", providerMessageId: stored[0]!.id });
    expect((await entry()).stepIndex).toBe(1);
  });

  it("a hand-over that fails with an error leaves no mark and gives the send back, so the retry sends it through SMTP", async () => {
    const email = "refused-then-retried@example.com";
    const { entryId, row, sendsUsed } = await atSendStep(email);
    const usedBefore = await sendsUsed();
    const failing: MailTransport = {
      ...smtp,
      send: async () => {
        throw new Error("connection refused");
      },
    };
    await expect(sendAutomationStep(ctx, failing, entryId, 0)).rejects.toThrow("connection refused");
    expect(await row()).toBeNull();
    expect(await sendsUsed()).toBe(usedBefore);

    expect(await sendAutomationStep(ctx, smtp, entryId, 0)).toEqual({ outcome: "sent", position: { completed: true } });
    expect(deliveredTo(email)).toBe(1);
    const [sent] = await ctx.db
      .select()
      .from(automationSends)
      .where(and(eq(automationSends.entryId, entryId), eq(automationSends.status, "sent")));
    expect(sent).toBeDefined();
  });
});

describe("an entry moves past a step only while it is still at that step of that version", () => {
  it("moveEntry is a compare-and-set: another version, another step or a second move changes nothing and says so", async () => {
    const { entryId, entry } = await atSendStep("compare-and-set@example.com");
    const { versionId } = await entry();
    expect(await moveEntry(ctx, { id: entryId, versionId: "av_another" }, 0, 1)).toBe(false);
    expect(await moveEntry(ctx, { id: entryId, versionId }, 3, 1)).toBe(false);
    expect((await entry()).stepIndex).toBe(0);
    expect(await moveEntry(ctx, { id: entryId, versionId }, 0, 1)).toBe(true);
    expect((await entry()).stepIndex).toBe(1);
    expect(await moveEntry(ctx, { id: entryId, versionId }, 0, 1)).toBe(false);
    expect((await entry()).stepIndex).toBe(1);
  });
});
