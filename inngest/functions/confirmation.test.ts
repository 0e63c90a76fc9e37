import { createPublicKey } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { confirmSubscription } from "@/lib/consent/confirm-subscription";
import { ADDRESS_DAILY_LIMIT } from "@/lib/consent/confirmation-windows";
import { decideAndSendConfirmation } from "@/lib/consent/send-confirmation-mail";
import { sendWelcomeMail } from "@/lib/consent/send-welcome-mail";
import { brands, confirmationRequests, contacts, sendingDomains, subscriptions } from "@/lib/db/schema";
import { encryptPrivateKey, generateDkimKeyPair } from "@/lib/domains/dkim-keys";
import { newId } from "@/lib/ids";
import { listMailbox } from "@/lib/mail/list-mailbox";
import type { MailTransport } from "@/lib/mail/transports/mail-transport";
import { smtpTransport } from "@/lib/mail/transports/smtp-transport";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { startSmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";
import { verifyToken } from "@/lib/tokens/signed-token";

// API calls stamp rows with the real time; the workflow clock starts ahead of it so their runs are due.
const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((events) => executor.enqueue(ctx, events));
});
afterAll(() => setWorkflowCtx(undefined));

async function setup(environment: "live" | "test" = "live") {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const form = apiClient((await seedKey(ctx, workspaceId, { kind: "publishable", environment })).key);
  const subscribe = (email: string, topic = topicId) => form.post("/v1/subscribe", { topic_id: topic, email });
  return { workspaceId, brandId, topicId, subscribe };
}
const mailTo = (workspaceId: string, to: string) => listMailbox(ctx, systemActor("test", workspaceId), { to });

/** An address's confirmation requests in a workspace, oldest mail first. */
const requestsTo = (workspaceId: string, email: string) =>
  ctx.db
    .select()
    .from(confirmationRequests)
    .where(and(eq(confirmationRequests.workspaceId, workspaceId), eq(confirmationRequests.email, email)))
    .orderBy(asc(confirmationRequests.mailedAt));

/** Runs a sending step again over SMTP, which cannot drop a repeat; answers what reached the server. */
async function againOverSmtp(send: (transport: MailTransport) => Promise<unknown>) {
  const capture = await startSmtpCapture();
  const smtp = smtpTransport({ url: capture.url });
  try {
    await send(smtp);
    return capture.received;
  } finally {
    await smtp.close();
    await capture.close();
  }
}

describe("double opt-in confirmation mail", () => {
  it("goes from the topic's brand to the address, with a signed confirmation link and the brand's postal address", async () => {
    const { workspaceId, topicId, subscribe } = await setup();
    await subscribe("new@example.com");
    await executor.runDue(ctx);
    const [mail] = await mailTo(workspaceId, "new@example.com");
    expect(mail).toBeDefined();
    expect(mail!.headers.From).toMatch(/^Brand .* <news-.*@brand\.example\.com>$/);
    expect(mail!.subject).toMatch(/^Confirm your subscription to Topic /);
    expect(mail!.text).toContain("1 Main Street, Springfield");
    const link = mail!.links.find((l) => l.includes("/confirm/"))!;
    expect(link.startsWith(`${process.env.APP_URL}/confirm/`)).toBe(true);
    const payload = verifyToken<{ r: string }>("confirm", link.split("/confirm/")[1]!);
    const [request] = await ctx.db.select().from(confirmationRequests).where(eq(confirmationRequests.id, payload!.r));
    expect(request).toMatchObject({ email: "new@example.com", mailedAt: clock.now() });
    const [subscription] = await ctx.db
      .select({ sentAt: subscriptions.confirmationSentAt })
      .from(subscriptions)
      .innerJoin(contacts, eq(contacts.id, subscriptions.contactId))
      .where(and(eq(subscriptions.topicId, topicId), eq(contacts.email, "new@example.com")));
    expect(subscription!.sentAt).toEqual(clock.now());
  });

  it("a retried step does not mail a confirmation again once it was sent and recorded, even over SMTP, which cannot drop a repeat", async () => {
    const { workspaceId, subscribe } = await setup();
    await subscribe("retried@example.com");
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "retried@example.com")).toHaveLength(1);
    const [request] = await requestsTo(workspaceId, "retried@example.com");
    // The step run again, as after a failure that came once the mail was recorded but before the step's result was saved.
    expect(await againOverSmtp((smtp) => decideAndSendConfirmation(ctx, smtp, request!.id))).toHaveLength(0);
  });

  it("an older confirmation's step run again after a newer one was mailed sends nothing and leaves the newer send time recorded", async () => {
    const { workspaceId, topicId, subscribe } = await setup();
    await subscribe("older@example.com");
    await executor.runDue(ctx);
    clock.advance(11 * 60_000);
    await subscribe("older@example.com");
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "older@example.com")).toHaveLength(2);
    const [older, newer] = await requestsTo(workspaceId, "older@example.com");
    expect(await againOverSmtp((smtp) => decideAndSendConfirmation(ctx, smtp, older!.id))).toHaveLength(0);
    const [subscription] = await ctx.db
      .select({ sentAt: subscriptions.confirmationSentAt })
      .from(subscriptions)
      .where(eq(subscriptions.topicId, topicId));
    expect(subscription!.sentAt).toEqual(newer!.mailedAt);
  });

  it("a second confirmation to the same address within 10 minutes is not sent, yet the call still answers confirmation_sent", async () => {
    const { workspaceId, subscribe } = await setup();
    expect((await subscribe("again@example.com")).body).toEqual({ data: { status: "confirmation_sent" } });
    await executor.runDue(ctx);
    clock.advance(9 * 60_000);
    expect((await subscribe("again@example.com")).body).toEqual({ data: { status: "confirmation_sent" } });
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "again@example.com")).toHaveLength(1);
    clock.advance(2 * 60_000);
    await subscribe("again@example.com");
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "again@example.com")).toHaveLength(2);
  });

  it("at most 5 confirmation mails per address per 24 hours across topics", async () => {
    const { workspaceId, brandId, subscribe } = await setup();
    for (let i = 0; i < 7; i++) await subscribe("busy@example.com", await seedTopic(ctx, workspaceId, brandId));
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "busy@example.com")).toHaveLength(5);
    const skipped = await ctx.db
      .select()
      .from(confirmationRequests)
      .where(
        and(eq(confirmationRequests.workspaceId, workspaceId), eq(confirmationRequests.skippedReason, "daily_limit")),
      );
    expect(skipped).toHaveLength(2);
  });

  it("at most 10 confirmation mails per address per 24 hours across all workspaces, decided concurrently; every call still answers confirmation_sent", async () => {
    const email = "spread@example.com";
    const workspaces = await Promise.all([setup(), setup(), setup()]);
    // Four topics in each of three workspaces: 12 requests, none over a workspace's own caps.
    for (const { workspaceId, brandId, subscribe } of workspaces) {
      for (let i = 0; i < 4; i++)
        expect((await subscribe(email, await seedTopic(ctx, workspaceId, brandId))).body).toEqual({
          data: { status: "confirmation_sent" },
        });
    }
    await Promise.all([executor.runDue(ctx), executor.runDue(ctx), executor.runDue(ctx)]);
    expect(await listMailbox(ctx, systemActor("test"), { to: email })).toHaveLength(ADDRESS_DAILY_LIMIT);
    const skipped = await ctx.db
      .select()
      .from(confirmationRequests)
      .where(and(eq(confirmationRequests.email, email), eq(confirmationRequests.skippedReason, "address_daily_limit")));
    expect(skipped).toHaveLength(2);
    // A day later the address may be asked again.
    clock.advance(24 * 60 * 60_000 + 1000);
    const { workspaceId, brandId, subscribe } = workspaces[0]!;
    await subscribe(email, await seedTopic(ctx, workspaceId, brandId));
    await executor.runDue(ctx);
    expect(await listMailbox(ctx, systemActor("test"), { to: email })).toHaveLength(ADDRESS_DAILY_LIMIT + 1);
  });

  it("concurrent submissions for one address mail once", async () => {
    const { workspaceId, subscribe } = await setup();
    await Promise.all(Array.from({ length: 5 }, () => subscribe("burst@example.com")));
    await Promise.all([executor.runDue(ctx), executor.runDue(ctx)]);
    expect(await mailTo(workspaceId, "burst@example.com")).toHaveLength(1);
  });

  it("a suppressed address (or domain) gets no confirmation mail", async () => {
    const { workspaceId, subscribe } = await setup();
    await createSuppression(ctx, systemActor("test", workspaceId), { domain: "blocked.example" });
    await subscribe("someone@blocked.example");
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "someone@blocked.example")).toEqual([]);
  });

  it("after confirmation a welcome mail carries List-Unsubscribe, List-Unsubscribe-Post, List-Id and visible unsubscribe and preference links with the postal address", async () => {
    const { workspaceId, subscribe } = await setup();
    await subscribe("welcome@example.com");
    await executor.runDue(ctx);
    const [confirmationMail] = await mailTo(workspaceId, "welcome@example.com");
    const token = confirmationMail!.links.find((l) => l.includes("/confirm/"))!.split("/confirm/")[1]!;
    const { confirmSubscription } = await import("@/lib/consent/confirm-subscription");
    expect((await confirmSubscription(ctx, token, { ip: null, userAgent: null })).outcome).toBe("confirmed");
    await executor.runDue(ctx);
    const [welcome] = await mailTo(workspaceId, "welcome@example.com");
    expect(welcome!.subject).toMatch(/^You're subscribed to /);
    expect(welcome!.headers["List-Unsubscribe"]).toMatch(new RegExp(`^<${process.env.APP_URL}/u/[\\w-]+\\.[\\w-]+>$`));
    expect(welcome!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(welcome!.headers["List-Id"]).toMatch(/^<tp-[0-9a-z]+\.brand\.example\.com>$/);
    expect(welcome!.links.some((l) => l.includes("/unsubscribe/"))).toBe(true);
    expect(welcome!.links.some((l) => l.includes("/preferences/"))).toBe(true);
    for (const part of [welcome!.text, welcome!.html]) {
      expect(part).toContain("1 Main Street, Springfield");
      expect(part).toContain("/unsubscribe/");
    }
  });

  it("a retried welcome step sends nothing once the welcome mail is recorded, even over SMTP, which cannot drop a repeat", async () => {
    const { workspaceId, topicId, subscribe } = await setup();
    await subscribe("welcomed@example.com");
    await executor.runDue(ctx);
    const [confirmationMail] = await mailTo(workspaceId, "welcomed@example.com");
    const token = confirmationMail!.links.find((l) => l.includes("/confirm/"))!.split("/confirm/")[1]!;
    expect((await confirmSubscription(ctx, token, { ip: null, userAgent: null })).outcome).toBe("confirmed");
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "welcomed@example.com")).toHaveLength(2);
    const [subscription] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.topicId, topicId));
    expect(subscription!.welcomeSentAt).toEqual(clock.now());
    // The step run again, as after a failure once the mail was recorded but before the step's result was saved.
    const received = await againOverSmtp(async (smtp) =>
      expect(await sendWelcomeMail(ctx, smtp, subscription!.id)).toEqual({ sent: false }),
    );
    expect(received).toHaveLength(0);
  });

  it("a brand with a ready domain signs its confirmation and welcome mail with the domain's own key (d=<hostname>), as its campaigns", async () => {
    const { workspaceId, brandId, topicId, subscribe } = await setup();
    const [brand] = await ctx.db.select().from(brands).where(eq(brands.id, brandId));
    const hostname = brand!.senderEmail.split("@")[1]!;
    const { publicKey, privateKeyPem } = generateDkimKeyPair();
    const domainId = newId("dom");
    await ctx.db.insert(sendingDomains).values({
      id: domainId,
      workspaceId,
      hostname,
      dkimSelector: "ms2026",
      dkimPublicKey: publicKey,
      dkimPrivateKey: encryptPrivateKey(privateKeyPem),
      state: "ready",
      createdAt: clock.now(),
    });
    await ctx.db.update(brands).set({ domainId }).where(eq(brands.id, brandId));
    const published = `v=DKIM1; k=rsa; p=${createPublicKey(privateKeyPem).export({ type: "spki", format: "der" }).toString("base64")}`;
    const resolver = async (name: string, type: string) => {
      if (type === "TXT" && name === `ms2026._domainkey.${hostname}`) return [[published]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
    };

    await subscribe("signed@example.com");
    await executor.runDue(ctx);
    const [request] = await requestsTo(workspaceId, "signed@example.com");
    // Sent again over SMTP, where the transport signs: the record of the first send is taken back first.
    await ctx.db.update(subscriptions).set({ confirmationSentAt: null }).where(eq(subscriptions.topicId, topicId));
    const [confirmation] = await againOverSmtp((smtp) => decideAndSendConfirmation(ctx, smtp, request!.id));
    const [subscription] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.topicId, topicId));
    await ctx.db.update(subscriptions).set({ state: "subscribed" }).where(eq(subscriptions.id, subscription!.id));
    const [welcome] = await againOverSmtp((smtp) => sendWelcomeMail(ctx, smtp, subscription!.id));
    for (const mail of [confirmation!, welcome!]) {
      const result = await dkimVerify(mail.raw, { resolver });
      expect(result.results[0]).toMatchObject({ signingDomain: hostname, status: { result: "pass" } });
    }
  });

  it("test keys send nothing", async () => {
    const { workspaceId, subscribe } = await setup("test");
    await subscribe("test@example.com");
    await executor.runDue(ctx);
    expect(await mailTo(workspaceId, "test@example.com")).toEqual([]);
  });
});
