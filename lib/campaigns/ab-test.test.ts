import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor } from "@/lib/actor";
import { getAbTest, saveAbTest } from "@/lib/campaigns/ab-test";
import { testShareSize } from "@/lib/campaigns/ab-test-dispatch";
import type { AbTestInput } from "@/lib/campaigns/ab-test-schemas";
import { abVariantFigures, pickAbWinner } from "@/lib/campaigns/ab-test-winner";
import { sendCampaignNow } from "@/lib/campaigns/campaign-actions";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, sends } from "@/lib/db/schema";
import { reloadEnv } from "@/lib/env";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { optOut, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => {
  setWorkflowCtx(undefined);
  reloadEnv();
});

const MINUTE = 60_000;
const PERSON = {
  userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15",
  ip: null,
};
const APPLE_PROXY = { userAgent: "Mozilla/5.0", ip: "17.58.0.1" };

async function drain(times = 15) {
  for (let i = 0; i < times; i++) {
    clock.advance(1000);
    await executor.runDue(ctx);
  }
}

/** A sending campaign to `people` subscribers with an A/B test, its test share sent. */
async function abCampaign(people: number, test: Partial<AbTestInput> = {}) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const actor = systemActor("test", workspaceId);
  const contactOf = new Map<string, string>();
  for (let i = 0; i < people; i++) {
    const email = `p${i}@example.com`;
    contactOf.set(email, (await upsertContact(ctx, actor, { email, topicIds: [topicId] })).contact.id);
  }
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId,
    topicId,
    name: "Launch",
    subject: "Our launch",
    html: '<p>Read <a href="https://shop.example/new">more</a></p>',
  });
  await saveAbTest(ctx, actor, campaignId, {
    dimension: "subject",
    variants: ["Subject A", "Subject B"],
    testShare: 50,
    metric: "clicks",
    waitMinutes: 120,
    ...test,
  });
  await sendCampaignNow(ctx, actor, campaignId);
  await drain();
  const rows = () => ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId));
  const mail = () => listMailbox(ctx, actor, { limit: 1000 });
  const campaign = async () => (await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!;
  const testSendsOf = async (variant: number) => (await rows()).filter((s) => s.abVariant === variant);
  const click = (sendId: string) =>
    recordClick(ctx, sendId, {
      url: "https://shop.example/new",
      country: null,
      deviceType: null,
      client: null,
      request: PERSON,
    });
  return { workspaceId, topicId, actor, campaignId, contactOf, rows, mail, campaign, testSendsOf, click };
}

/** Past the test's wait: the workflow picks the winner and dispatch sends the rest. */
async function pastTheWait(minutes = 121) {
  clock.advance(minutes * MINUTE);
  await drain();
}

describe("A/B tests", () => {
  it("each recipient of the test share gets one variant at random, recorded on its send; the rest wait unsent", async () => {
    const ab = await abCampaign(20);
    const all = await ab.rows();
    const test = all.filter((s) => s.abVariant !== null);
    expect(test).toHaveLength(10);
    // Dealt in turn over a random order: each variant the same number.
    expect(test.filter((s) => s.abVariant === 0)).toHaveLength(5);
    expect(test.filter((s) => s.abVariant === 1)).toHaveLength(5);
    expect(test.every((s) => s.state === "accepted")).toBe(true);
    const rest = all.filter((s) => s.abVariant === null);
    expect(rest.every((s) => s.state === "queued")).toBe(true);
    // Each test recipient got the subject of the variant on its send, and nobody else got anything.
    const mail = await ab.mail();
    expect(mail).toHaveLength(10);
    for (const send of test)
      expect(mail.find((m) => m.to === send.email)!.subject).toBe(send.abVariant === 0 ? "Subject A" : "Subject B");
    expect((await ab.campaign()).status).toBe("sending");
  });

  it("the variants are given at random: two campaigns to the same audience pick different test shares", async () => {
    const first = await abCampaign(40);
    const second = await abCampaign(40);
    const share = async (ab: typeof first) =>
      (await ab.rows())
        .filter((s) => s.abVariant !== null)
        .map((s) => `${s.email}:${s.abVariant}`)
        .sort()
        .join();
    // 40 choose 20 dealt two ways: the same draw twice is beyond chance.
    expect(await share(first)).not.toBe(await share(second));
  });

  it("test share size: the percent of the audience rounded, at least one per variant, never more than the audience", () => {
    expect(testShareSize(1000, 20, 2)).toBe(200);
    expect(testShareSize(1001, 15, 3)).toBe(150);
    expect(testShareSize(10, 1, 3)).toBe(3);
    expect(testShareSize(2, 10, 3)).toBe(2);
    expect(testShareSize(37, null, 2)).toBe(37);
  });

  it("test share of everyone: every recipient gets a variant, nobody waits, and the winner is still chosen after the wait", async () => {
    const ab = await abCampaign(6, { testShare: "everyone" });
    expect((await ab.rows()).every((s) => s.abVariant !== null && s.state === "accepted")).toBe(true);
    expect((await ab.campaign()).status).toBe("sent");
    const [b] = await ab.testSendsOf(1);
    await ab.click(b!.id);
    await pastTheWait();
    expect((await getAbTest(ctx, ab.actor, ab.campaignId))!.winner).toBe(1);
    expect(await ab.mail()).toHaveLength(6);
  });

  it("after the wait the winner is the variant with the most clicks, and the rest are sent it", async () => {
    const ab = await abCampaign(12);
    const [a1] = await ab.testSendsOf(0);
    const [b1, b2] = await ab.testSendsOf(1);
    await ab.click(a1!.id);
    await ab.click(b1!.id);
    await ab.click(b2!.id);
    // Not before the wait is over.
    await pastTheWait(100);
    expect((await getAbTest(ctx, ab.actor, ab.campaignId))!.winner).toBeNull();
    expect(await ab.mail()).toHaveLength(6);
    await pastTheWait(21);
    const test = (await getAbTest(ctx, ab.actor, ab.campaignId))!;
    expect(test).toMatchObject({ winner: 1, winnerPickedBy: "metric" });
    const mail = await ab.mail();
    expect(mail).toHaveLength(12);
    const rest = (await ab.rows()).filter((s) => s.abVariant === null);
    for (const send of rest) expect(mail.find((m) => m.to === send.email)!.subject).toBe("Subject B");
    // The report row's subject is the winner's, and the campaign is sent.
    expect(await ab.campaign()).toMatchObject({ status: "sent", subject: "Subject B" });
  });

  it("a tie goes to the first variant", async () => {
    const ab = await abCampaign(8);
    const [a1] = await ab.testSendsOf(0);
    const [b1] = await ab.testSendsOf(1);
    await ab.click(b1!.id);
    await ab.click(a1!.id);
    await pastTheWait();
    expect((await getAbTest(ctx, ab.actor, ab.campaignId))!.winner).toBe(0);
  });

  it("winner by human opens: opens by Apple Mail Privacy Protection are not counted, the person's are", async () => {
    const ab = await abCampaign(12, { metric: "human_opens" });
    const variantA = await ab.testSendsOf(0);
    const [b1] = await ab.testSendsOf(1);
    // Three machine opens for A (more pixel loads), one person's open for B.
    for (const send of variantA) await recordOpen(ctx, send.id, { country: null, request: APPLE_PROXY });
    await recordOpen(ctx, b1!.id, { country: null, request: PERSON });
    await pastTheWait();
    expect((await getAbTest(ctx, ab.actor, ab.campaignId))!.winner).toBe(1);
    const figures = await abVariantFigures(ctx, await ab.campaign(), (await getAbTest(ctx, ab.actor, ab.campaignId))!);
    expect(figures.slice(0, 2)).toEqual([
      { variant: 0, sends: 3, sent: 3, humanOpens: 0, clicks: 0 },
      { variant: 1, sends: 3, sent: 3, humanOpens: 1, clicks: 0 },
    ]);
  });

  it("a person may pick any variant before the wait ends: the rest are sent it at once, and the wait's end changes nothing", async () => {
    const ab = await abCampaign(10);
    const [b1] = await ab.testSendsOf(1);
    await ab.click(b1!.id);
    clock.advance(10 * MINUTE);
    await pickAbWinner(ctx, ab.actor, ab.campaignId, 0);
    await drain();
    expect((await getAbTest(ctx, ab.actor, ab.campaignId))!).toMatchObject({
      winner: 0,
      winnerPickedBy: "system:test",
    });
    const mail = await ab.mail();
    expect(mail).toHaveLength(10);
    const rest = (await ab.rows()).filter((s) => s.abVariant === null);
    for (const send of rest) expect(mail.find((m) => m.to === send.email)!.subject).toBe("Subject A");
    await pastTheWait();
    expect((await getAbTest(ctx, ab.actor, ab.campaignId))!.winner).toBe(0);
    await expect(pickAbWinner(ctx, ab.actor, ab.campaignId, 1)).rejects.toMatchObject({ code: "validation_failed" });
  });

  it("the rest are sent the winner exactly once, and no test recipient is mailed twice", async () => {
    const ab = await abCampaign(10, { dimension: "sender_name", variants: ["Ana from Shop", "The Shop team"] });
    await pickAbWinner(ctx, ab.actor, ab.campaignId, 1);
    await drain();
    // The wait's own run, and any dispatch run after it, find nothing more to send.
    await pastTheWait();
    const mail = await ab.mail();
    expect(mail).toHaveLength(10);
    expect(new Set(mail.map((m) => m.to)).size).toBe(10);
    const rows = await ab.rows();
    for (const send of rows) {
      const headers = mail.find((m) => m.to === send.email)!.headers;
      const from = Object.entries(headers).find(([name]) => name.toLowerCase() === "from")![1];
      expect(from).toContain(send.abVariant === 0 ? "Ana from Shop" : "The Shop team");
    }
    expect(rows.every((s) => s.state === "accepted")).toBe(true);
  });

  it("those who opted out or were suppressed during the wait are not sent the winner", async () => {
    const ab = await abCampaign(10);
    const rest = (await ab.rows()).filter((s) => s.abVariant === null);
    const [topicOut, allOut, suppressed] = rest;
    await optOut(ctx, topicOut!.contactId, ab.topicId);
    await optOut(ctx, allOut!.contactId, "all");
    await createSuppression(ctx, ab.actor, { email: suppressed!.email });
    await pastTheWait();
    const mailed = new Set((await ab.mail()).map((m) => m.to));
    expect(mailed.size).toBe(7);
    for (const send of [topicOut, allOut, suppressed]) expect(mailed.has(send!.email)).toBe(false);
    const after = new Map((await ab.rows()).map((s) => [s.id, s]));
    expect(after.get(topicOut!.id)).toMatchObject({ state: "cancelled", failureReason: "opted_out" });
    expect(after.get(allOut!.id)).toMatchObject({ state: "cancelled", failureReason: "opted_out" });
    expect(after.get(suppressed!.id)).toMatchObject({ state: "failed", failureReason: "suppressed" });
    expect((await ab.campaign()).status).toBe("sent");
  });

  it("a content variant's rest get the winning body, its text part from its HTML", async () => {
    const ab = await abCampaign(4, {
      dimension: "content",
      variants: ["<p>Short version</p>", '<p>Long version, <a href="https://shop.example/long">read on</a></p>'],
    });
    await pickAbWinner(ctx, ab.actor, ab.campaignId, 1);
    await drain();
    const rest = (await ab.rows()).filter((s) => s.abVariant === null);
    const mail = await ab.mail();
    for (const send of rest) {
      const got = mail.find((m) => m.to === send.email)!;
      expect(got.html).toContain("Long version");
      expect(got.text).toContain("Long version, read on");
    }
  });

  it("an A/B test is refused with two identical variants, beside the variant", async () => {
    const ab = await abCampaign(2);
    const { campaignId } = await createCampaign(ctx, ab.actor, {
      brandId: (await ab.campaign()).brandId,
      topicId: ab.topicId,
      name: "Other",
      subject: "S",
      html: "<p>x</p>",
    });
    await expect(
      saveAbTest(ctx, ab.actor, campaignId, { dimension: "subject", variants: ["Same", "Same"], testShare: 20 }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "variants.1" });
    // A campaign whose sending started keeps its test as it was.
    await expect(
      saveAbTest(ctx, ab.actor, ab.campaignId, { dimension: "subject", variants: ["X", "Y"], testShare: 20 }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "campaignId" });
  });
});
