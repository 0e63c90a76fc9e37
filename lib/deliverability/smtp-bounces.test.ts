import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { ImapFlow } from "imapflow";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { contacts, events, providerEvents, sends, suppressions } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { signedMessageId } from "@/lib/mail/message-id";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";
import { smtpTransport } from "@/lib/mail/transports/smtp-transport";
import { suppressionsOfAddress } from "@/lib/suppressions/suppression-evidence";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { startDovecot } from "@/lib/testing/dovecot";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { startSmtpCapture, type SmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { createEndpoint } from "@/lib/webhooks/endpoints";

import { startBounceListener } from "./bounce-listener";
import { imapOptions, pollBounceMailbox } from "./poll-bounce-mailbox";
import { readBounceMail } from "./read-bounce-mail";
import { readReturnPath, returnPathFor } from "./return-path";

// Campaign mail leaves through a real SMTP "carrier" on loopback; bounces come back as mail to the built-in
// listener (SMTP) and to a bounce mailbox on a real Dovecot (IMAP), and end as suppressions and webhooks.
const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
const BOUNCE_DOMAIN = "bounces.brand.example";
let carrier: SmtpCapture;
let listener: SMTPServer;
let listenerPort: number;
let transport: MailTransport;
const globalForMail = globalThis as unknown as { __mailTransport?: MailTransport };

beforeAll(async () => {
  overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
  setWorkflowCtx(ctx);
  carrier = await startSmtpCapture();
  transport = smtpTransport({ url: carrier.url, bounceDomain: BOUNCE_DOMAIN });
  globalForMail.__mailTransport = transport;
  listener = await startBounceListener(() => ctx, { port: 0, host: "127.0.0.1", domain: BOUNCE_DOMAIN });
  listenerPort = (listener.server.address() as AddressInfo).port;
});

afterAll(async () => {
  delete globalForMail.__mailTransport;
  reloadEnv();
  setWorkflowCtx(undefined);
  await transport.close();
  await carrier.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

/** A campaign to the given addresses, dispatched through the SMTP carrier; returns each address's send. */
async function campaignTo(emails: string[]) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const actor = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  for (const email of emails) await upsertContact(ctx, actor, { email, topicIds: [topicId] });
  const receiver = await startWebhookReceiver();
  await createEndpoint(ctx, actor, { url: receiver.url, eventTypes: ["email.bounced", "email.complained"] });
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId,
    topicId,
    name: "Launch",
    subject: "Hello",
    html: "<p>Hello</p>",
  });
  await sendCampaignNow(ctx, actor, campaignId);
  await executor.runDue(ctx);
  const rows = await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId));
  return { workspaceId, receiver, sendOf: (email: string) => rows.find((row) => row.email === email)! };
}

function dsn(to: string, recipient: string, status: string, diagnostic: string, originalMessageId: string) {
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    `To: ${to}`,
    "Subject: Undelivered Mail Returned to Sender",
    `Message-ID: <dsn-${Math.random().toString(36).slice(2)}@mx.example.net>`,
    "Date: Wed, 25 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B1"',
    "",
    "--B1",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "Your message could not be delivered.",
    "",
    "--B1",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "",
    `Final-Recipient: rfc822; ${recipient}`,
    "Action: failed",
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${diagnostic.replace(": ", ":\r\n    ")}`,
    "",
    "--B1",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: ${originalMessageId}`,
    "Subject: Hello",
    "",
    "--B1--",
    "",
  ].join("\r\n");
}

const eventsOf = (workspaceId: string, type: string) =>
  ctx.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), eq(events.type, type)));

/** A report mailed to the built-in listener, as a mail server or a feedback loop would. */
async function mailTo(address: string, raw: string) {
  const mailer = nodemailer.createTransport({ host: "127.0.0.1", port: listenerPort, secure: false, ignoreTLS: true });
  try {
    await mailer.sendMail({ envelope: { from: "", to: address }, raw });
  } finally {
    mailer.close();
  }
}

function arf(recipient: string, originalMessageId: string) {
  return [
    "From: Feedback Loop <fbl@isp.example>",
    `To: fbl@${BOUNCE_DOMAIN}`,
    "Subject: Abuse report",
    `Message-ID: <arf-${Math.random().toString(36).slice(2)}@isp.example>`,
    "Date: Wed, 25 Nov 2026 10:05:00 +0000",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="F1"',
    "",
    "--F1",
    "Content-Type: text/plain",
    "",
    "This is an email abuse report.",
    "",
    "--F1",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: ISP-FBL/1.0",
    "Version: 1",
    `Original-Rcpt-To: ${recipient}`,
    "",
    "--F1",
    "Content-Type: message/rfc822",
    "",
    `Message-ID: ${originalMessageId}`,
    `To: ${recipient}`,
    "Subject: Hello",
    "",
    "Hello",
    "--F1--",
    "",
  ].join("\r\n");
}

describe("bounces for SMTP senders", () => {
  it("VERP: every SMTP message's envelope sender is its own signed bounce address; an altered one names nothing", async () => {
    const { sendOf } = await campaignTo(["verp@example.com"]);
    const send = sendOf("verp@example.com");
    const message = carrier.received.find((mail) => mail.to.includes("verp@example.com"))!;
    expect(message.from).toBe(returnPathFor(send.id, BOUNCE_DOMAIN));
    expect(readReturnPath(message.from)).toBe(send.id);
    // One digit of the signature changed (to another digit: a 0 stays no 0).
    const altered = message.from.replace(/\.([0-9a-f])/, (_, digit: string) => (digit === "0" ? ".1" : ".0"));
    expect(altered).not.toBe(message.from);
    expect(readReturnPath(altered)).toBeNull();
    expect(readReturnPath(`bounces+snd_someoneelse.0123456789abcdef@${BOUNCE_DOMAIN}`)).toBeNull();
  });

  it("a DSN with a 5.x.x status is a permanent bounce with its code and the server's words; 4.x.x transient; delayed is not a bounce; other mail is kept aside", async () => {
    const to = returnPathFor("snd_x", BOUNCE_DOMAIN);
    const hard = await readBounceMail(
      Buffer.from(
        dsn(
          to,
          "gone@example.com",
          "5.1.1",
          "550 5.1.1 <gone@example.com>: Recipient address rejected",
          "<snd_x@brand.example>",
        ),
      ),
    );
    expect(hard).toMatchObject({
      provider: "smtp",
      unrecognized: false,
      event: {
        type: "bounced",
        bounceType: "permanent",
        statusCode: "5.1.1",
        sendId: "snd_x",
        reason: "550 5.1.1 <gone@example.com>: Recipient address rejected",
      },
    });
    // Without a signed return path the report is matched by the Message-ID it quotes, only when that id's signature
    // verifies, and it must then name the send's recipient if it names one; the unsigned old form names nothing.
    const quoted = await readBounceMail(
      Buffer.from(
        dsn(
          `fbl@${BOUNCE_DOMAIN}`,
          "gone@example.com",
          "5.1.1",
          "550 5.1.1 unknown",
          signedMessageId("snd_x", "brand.example"),
        ),
      ),
    );
    expect(quoted.event).toMatchObject({ type: "bounced", sendId: "snd_x", recipient: "gone@example.com" });
    const unsigned = await readBounceMail(
      Buffer.from(
        dsn(`fbl@${BOUNCE_DOMAIN}`, "gone@example.com", "5.1.1", "550 5.1.1 unknown", "<snd_x@brand.example>"),
      ),
    );
    expect(unsigned).toMatchObject({ event: null, unrecognized: false });
    const soft = await readBounceMail(
      Buffer.from(dsn(to, "full@example.com", "4.2.2", "452 4.2.2 Mailbox full", "<snd_x@brand.example>")),
    );
    expect(soft.event).toMatchObject({ type: "bounced", bounceType: "transient", statusCode: "4.2.2" });
    const delayed = await readBounceMail(
      Buffer.from(
        dsn(to, "slow@example.com", "4.4.7", "timeout", "<snd_x@brand.example>").replace(
          "Action: failed",
          "Action: delayed",
        ),
      ),
    );
    expect(delayed).toMatchObject({ event: null, unrecognized: false });
    const other = await readBounceMail(
      Buffer.from(
        `From: someone@example.com\r\nTo: ${to}\r\nSubject: Out of office\r\nMessage-ID: <ooo@example.com>\r\n\r\nI am away.\r\n`,
      ),
    );
    expect(other).toMatchObject({ event: null, unrecognized: true, providerEventId: "<ooo@example.com>" });
  });

  it("SMTP bounces end to end: a DSN mailed back to the built-in listener suppresses the address with the DSN as evidence, fires email.bounced, and a second copy changes nothing", async () => {
    const { workspaceId, sendOf, receiver } = await campaignTo(["gone@example.com", "fine@example.com"]);
    const send = sendOf("gone@example.com");
    const returnPath = carrier.received.find((mail) => mail.to.includes("gone@example.com"))!.from;
    const report = dsn(
      returnPath,
      "gone@example.com",
      "5.1.1",
      "550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown",
      send.providerMessageId!,
    );
    const mailer = nodemailer.createTransport({
      host: "127.0.0.1",
      port: listenerPort,
      secure: false,
      ignoreTLS: true,
    });
    await mailer.sendMail({ envelope: { from: "", to: returnPath }, raw: report });
    await mailer.sendMail({ envelope: { from: "", to: returnPath }, raw: report });
    // The listener relays nothing, and takes only our signed return paths and the feedback address.
    await expect(
      mailer.sendMail({
        envelope: { from: "spam@example.net", to: "victim@example.org" },
        raw: "Subject: hi\r\n\r\nhi",
      }),
    ).rejects.toThrow(/550/);
    await expect(
      mailer.sendMail({
        envelope: { from: "spam@example.net", to: `anything@${BOUNCE_DOMAIN}` },
        raw: "Subject: hi\r\n\r\nhi",
      }),
    ).rejects.toThrow(/550/);
    mailer.close();
    await executor.runDue(ctx);

    const stored = await ctx.db
      .select()
      .from(providerEvents)
      .where(and(eq(providerEvents.provider, "smtp"), eq(providerEvents.workspaceId, workspaceId)));
    expect(stored).toMatchObject([
      { state: "applied", event: { type: "bounced", bounceType: "permanent", statusCode: "5.1.1", sendId: send.id } },
    ]);
    expect(stored[0]!.raw).toContain("Diagnostic-Code: smtp; 550 5.1.1");
    expect(
      await ctx.db
        .select({ email: suppressions.email, reason: suppressions.reason, evidence: suppressions.evidenceEventId })
        .from(suppressions)
        .where(eq(suppressions.workspaceId, workspaceId)),
    ).toEqual([{ email: "gone@example.com", reason: "bounce", evidence: stored[0]!.id }]);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]).toMatchObject({
      bounceType: "permanent",
    });
    // What the contact's page shows as the bounce's evidence.
    const onContactPage = await suppressionsOfAddress(ctx, systemActor("test", workspaceId), "gone@example.com");
    expect(onContactPage.current).toMatchObject([
      {
        reason: "bounce",
        evidence: {
          provider: "smtp",
          statusCode: "5.1.1",
          wording: "550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown",
          raw: expect.stringContaining("Status: 5.1.1"),
        },
      },
    ]);
    const [bounced] = await eventsOf(workspaceId, "email.bounced");
    expect(bounced!.data).toMatchObject({
      email: "gone@example.com",
      bounce_type: "permanent",
      reason: "550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown",
      suppressed: true,
    });
    clock.advance(60_000);
    await executor.runDue(ctx);
    expect(receiver.received.map((hook) => hook.body.type)).toEqual(["email.bounced"]);
    await receiver.close();
  });

  it("a forged complaint quoting a guessed Message-ID is ignored: nothing is suppressed and no event is recorded", async () => {
    const { workspaceId, sendOf } = await campaignTo(["victim@example.com", "attacker@example.com"]);
    const victim = sendOf("victim@example.com");
    const attacker = sendOf("attacker@example.com");
    // What the attacker can make from the id of the mail they received: the next send's id, unsigned or with their own signature.
    const domain = attacker.providerMessageId!.replace(/^.*@|>$/g, "");
    for (const guessed of [`<${victim.id}@${domain}>`, attacker.providerMessageId!.replace(attacker.id, victim.id)]) {
      await mailTo(`fbl@${BOUNCE_DOMAIN}`, arf("victim@example.com", guessed));
    }
    await executor.runDue(ctx);
    expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([]);
    expect(await eventsOf(workspaceId, "email.complained")).toEqual([]);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, victim.id)))[0]!.complainedAt).toBeNull();
    const stored = await ctx.db
      .select({ state: providerEvents.state, raw: providerEvents.raw })
      .from(providerEvents)
      .where(eq(providerEvents.provider, "smtp"));
    expect(stored.filter((row) => row.raw.includes(victim.id)).map((row) => row.state)).toEqual(["ignored", "ignored"]);
  });

  it("a complaint quoting a Message-ID whose signature was tampered with is ignored", async () => {
    const { workspaceId, sendOf } = await campaignTo(["tampered@example.com"]);
    const messageId = sendOf("tampered@example.com").providerMessageId!;
    expect(messageId).toMatch(/^<snd_[a-z0-9]+\.[0-9a-f]{32}@/);
    // One digit of the signature changed (to another digit: a 0 becomes a 1).
    const tampered = messageId.replace(/\.([0-9a-f])/, (_, digit: string) => (digit === "0" ? ".1" : ".0"));
    await mailTo(`fbl@${BOUNCE_DOMAIN}`, arf("tampered@example.com", tampered));
    await executor.runDue(ctx);
    expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([]);
    expect(await eventsOf(workspaceId, "email.complained")).toEqual([]);
  });

  it("a DSN saying delivered counts only when it comes to the send's signed return path: one quoting a real Message-ID marks nothing delivered, resets no soft-bounce streak and fires no email.delivered", async () => {
    const { workspaceId, sendOf } = await campaignTo(["streak@example.com"]);
    const send = sendOf("streak@example.com");
    await ctx.db.update(contacts).set({ transientBounceStreak: 3 }).where(eq(contacts.id, send.contactId));
    const delivered = (to: string) =>
      dsn(to, "streak@example.com", "2.0.0", "250 2.0.0 OK", send.providerMessageId!).replace(
        "Action: failed",
        "Action: delivered",
      );
    await mailTo(`fbl@${BOUNCE_DOMAIN}`, delivered(`fbl@${BOUNCE_DOMAIN}`));
    await executor.runDue(ctx);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.deliveredAt).toBeNull();
    expect(
      (await ctx.db.select().from(contacts).where(eq(contacts.id, send.contactId)))[0]!.transientBounceStreak,
    ).toBe(3);
    expect(await eventsOf(workspaceId, "email.delivered")).toEqual([]);

    const returnPath = carrier.received.find((mail) => mail.to.includes("streak@example.com"))!.from;
    await mailTo(returnPath, delivered(returnPath));
    await executor.runDue(ctx);
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.deliveredAt).not.toBeNull();
    expect(
      (await ctx.db.select().from(contacts).where(eq(contacts.id, send.contactId)))[0]!.transientBounceStreak,
    ).toBe(0);
    expect(await eventsOf(workspaceId, "email.delivered")).toHaveLength(1);
  });

  it("a feedback-loop complaint that hides the recipient, quoting a real signed Message-ID, suppresses the address as a complaint and fires email.complained", async () => {
    const { workspaceId, sendOf } = await campaignTo(["redacted@example.com"]);
    const send = sendOf("redacted@example.com");
    const report = arf("xxxxxxxx@example.com", send.providerMessageId!).replace(/Original-Rcpt-To: .*\r\n/, "");
    await mailTo(`fbl@${BOUNCE_DOMAIN}`, report);
    await executor.runDue(ctx);
    const stored = await ctx.db
      .select()
      .from(providerEvents)
      .where(and(eq(providerEvents.provider, "smtp"), eq(providerEvents.workspaceId, workspaceId)));
    expect(stored).toMatchObject([{ state: "applied", event: { type: "complained", sendId: send.id } }]);
    expect(
      await ctx.db
        .select({ email: suppressions.email, reason: suppressions.reason, evidence: suppressions.evidenceEventId })
        .from(suppressions)
        .where(eq(suppressions.workspaceId, workspaceId)),
    ).toEqual([{ email: "redacted@example.com", reason: "complaint", evidence: stored[0]!.id }]);
    expect(await eventsOf(workspaceId, "email.complained")).toHaveLength(1);
  });

  it("a report matched by a signed Message-ID that names someone other than the send's recipient suppresses no one", async () => {
    const { workspaceId, sendOf } = await campaignTo(["forwarder@example.com"]);
    // The mail forwarded on, and reported by whoever it was forwarded to: not the send's recipient's complaint.
    await mailTo(
      `fbl@${BOUNCE_DOMAIN}`,
      arf("someone-else@example.com", sendOf("forwarder@example.com").providerMessageId!),
    );
    await executor.runDue(ctx);
    expect(await ctx.db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).toEqual([]);
    expect(await eventsOf(workspaceId, "email.complained")).toEqual([]);
  });

  it("a complaint report (ARF) in the IMAP bounce mailbox suppresses the address for good and fires email.complained; the mailbox is emptied and a re-read changes nothing", async () => {
    const dovecot = await startDovecot();
    try {
      const { workspaceId, sendOf, receiver } = await campaignTo(["angry@example.com"]);
      const send = sendOf("angry@example.com");
      const imap = new ImapFlow(imapOptions(dovecot.url).client);
      await imap.connect();
      const report = arf("angry@example.com", send.providerMessageId!);
      await imap.append("INBOX", report);
      await imap.append(
        "INBOX",
        "From: a@example.com\r\nTo: fbl@bounces.brand.example\r\nSubject: Hello there\r\nMessage-ID: <chatter@example.com>\r\n\r\nJust saying hi.\r\n",
      );
      expect(await pollBounceMailbox(ctx, dovecot.url)).toEqual({ read: 2 });
      expect(await imap.status("INBOX", { messages: true })).toMatchObject({ messages: 0 });
      await imap.append("INBOX", report); // the same report again
      expect(await pollBounceMailbox(ctx, dovecot.url)).toEqual({ read: 1 });
      await imap.logout();
      await executor.runDue(ctx);

      const complained = await ctx.db
        .select()
        .from(providerEvents)
        .where(and(eq(providerEvents.provider, "smtp"), eq(providerEvents.workspaceId, workspaceId)));
      expect(complained).toMatchObject([{ state: "applied", event: { type: "complained", complaintType: "abuse" } }]);
      expect(
        (
          await ctx.db.select().from(providerEvents).where(eq(providerEvents.providerEventId, "<chatter@example.com>"))
        )[0],
      ).toMatchObject({ state: "unrecognized" });
      expect(
        await ctx.db
          .select({ reason: suppressions.reason, evidence: suppressions.evidenceEventId })
          .from(suppressions)
          .where(eq(suppressions.workspaceId, workspaceId)),
      ).toEqual([{ reason: "complaint", evidence: complained[0]!.id }]);
      clock.advance(60_000);
      await executor.runDue(ctx);
      expect(receiver.received.map((hook) => hook.body.type)).toEqual(["email.complained"]);
      await receiver.close();
    } finally {
      await dovecot.stop();
    }
  });
});
