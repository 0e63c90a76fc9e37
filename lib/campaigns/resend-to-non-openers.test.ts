import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, sends } from "@/lib/db/schema";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { optOut, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { recordClick, recordOpen } from "@/lib/tracking/record-engagement";

import { previewAudience } from "./preview-audience";
import { resendToNonOpeners } from "./resend-to-non-openers";
import { createCampaign } from "./save-campaign";
import { snapshotAudience } from "./snapshot-audience";

const { ctx, clock } = testCtx();
const HOUR = 3_600_000;
const PERSON = {
  userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Thunderbird/128",
  ip: "203.0.113.7",
};
const APPLE_PROXY = { userAgent: "Mozilla/5.0", ip: "17.58.0.1" };

/** A campaign sent to the given people, each with their send handed to the provider. */
async function sentCampaign(emails: string[]) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await clearForSending(ctx, workspaceId);
  const actor = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const contacts: Record<string, string> = {};
  for (const email of emails)
    contacts[email] = (await upsertContact(ctx, actor, { email, topicIds: [topicId] })).contact.id;
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId,
    topicId,
    name: "Launch",
    subject: "Our launch",
    html: "<p>Hello</p>",
  });
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
  await snapshotAudience(ctx, campaignId);
  await ctx.db
    .update(sends)
    .set({ state: "accepted", acceptedAt: clock.now() })
    .where(eq(sends.campaignId, campaignId));
  await ctx.db.update(campaigns).set({ status: "sent", completedAt: clock.now() }).where(eq(campaigns.id, campaignId));
  const sendOf = async (email: string) => {
    const [send] = await ctx.db.select().from(sends).where(eq(sends.contactId, contacts[email]!));
    return send!.id;
  };
  return { workspaceId, brandId, topicId, actor, campaignId, contacts, sendOf };
}

/** Who the resend goes to when it starts: its snapshot's addresses. */
async function resendRecipients(resendId: string): Promise<string[]> {
  await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, resendId));
  await snapshotAudience(ctx, resendId);
  const rows = await ctx.db
    .select({ email: sends.email, state: sends.state })
    .from(sends)
    .where(eq(sends.campaignId, resendId));
  return rows
    .filter((row) => row.state === "queued")
    .map((row) => row.email)
    .sort();
}

describe("resending to non-openers", () => {
  it("the audience is the original's recipients without an open or click of their own", async () => {
    const sent = await sentCampaign(["opened@example.com", "clicked@example.com", "silent@example.com"]);
    clock.advance(HOUR);
    await recordOpen(ctx, await sent.sendOf("opened@example.com"), { country: null, request: PERSON });
    await recordClick(ctx, await sent.sendOf("clicked@example.com"), {
      url: "https://example.com/",
      country: null,
      deviceType: null,
      client: null,
      request: PERSON,
    });
    // Someone who subscribed after the original went out did not get it, so it is not resent to them.
    await upsertContact(ctx, sent.actor, { email: "newcomer@example.com", topicIds: [sent.topicId] });

    const { campaignId } = await resendToNonOpeners(ctx, sent.actor, sent.campaignId, {
      subject: "In case you missed it",
      waitHours: 24,
    });
    const preview = await previewAudience(ctx, sent.actor, campaignId);
    expect(preview.recipients).toBe(1);
    expect(preview.exclusions).toEqual(
      expect.arrayContaining([
        { reason: "opened_original", count: 2, sample: ["clicked@example.com", "opened@example.com"] },
        { reason: "not_sent_original", count: 1, sample: ["newcomer@example.com"] },
      ]),
    );
    const [resend] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(resend).toMatchObject({
      resendOf: sent.campaignId,
      subject: "In case you missed it",
      topicId: sent.topicId,
    });
    expect(await resendRecipients(campaignId)).toEqual(["silent@example.com"]);
  });

  it("a machine open (Apple Mail Privacy Protection) does not count as opened; the person's later open does", async () => {
    const sent = await sentCampaign(["proxied@example.com", "proxied-then-read@example.com"]);
    clock.advance(HOUR);
    await recordOpen(ctx, await sent.sendOf("proxied@example.com"), { country: null, request: APPLE_PROXY });
    await recordOpen(ctx, await sent.sendOf("proxied-then-read@example.com"), { country: null, request: APPLE_PROXY });
    await recordOpen(ctx, await sent.sendOf("proxied-then-read@example.com"), { country: null, request: PERSON });
    const [proxied] = await ctx.db
      .select()
      .from(sends)
      .where(eq(sends.id, await sent.sendOf("proxied@example.com")));
    // The report still counts the pixel as loaded.
    expect(proxied!.openedAt).not.toBeNull();
    expect(proxied!.humanOpenedAt).toBeNull();

    const { campaignId } = await resendToNonOpeners(ctx, sent.actor, sent.campaignId, {
      subject: "Again",
      waitHours: 24,
    });
    expect(await resendRecipients(campaignId)).toEqual(["proxied@example.com"]);
  });

  it("who opted out or was suppressed since the original is left out", async () => {
    const sent = await sentCampaign(["stays@example.com", "left@example.com", "suppressed@example.com"]);
    const { campaignId } = await resendToNonOpeners(ctx, sent.actor, sent.campaignId, {
      subject: "Again",
      waitHours: 24,
    });
    await optOut(ctx, sent.contacts["left@example.com"]!, sent.topicId);
    await createSuppression(ctx, sent.actor, { email: "suppressed@example.com" }, "complaint");
    const preview = await previewAudience(ctx, sent.actor, campaignId);
    expect(preview.recipients).toBe(1);
    expect(preview.exclusions.map((e) => e.reason).sort()).toEqual(["suppressed_complaint", "unsubscribed"]);
    expect(await resendRecipients(campaignId)).toEqual(["stays@example.com"]);
  });

  it("is scheduled for the original's send time plus the wait; a wait already over leaves a draft", async () => {
    const sent = await sentCampaign(["a@example.com"]);
    const [original] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, sent.campaignId));
    clock.advance(2 * HOUR);
    const soon = await resendToNonOpeners(ctx, sent.actor, sent.campaignId, { subject: "Again", waitHours: 48 });
    expect(soon.scheduledAt).toEqual(new Date(original!.sentAt!.getTime() + 48 * HOUR));
    const [scheduled] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, soon.campaignId));
    expect(scheduled).toMatchObject({ status: "scheduled", scheduledAt: soon.scheduledAt });

    const late = await sentCampaign(["b@example.com"]);
    clock.advance(30 * HOUR);
    const draft = await resendToNonOpeners(ctx, late.actor, late.campaignId, { subject: "Again", waitHours: 24 });
    expect(draft.scheduledAt).toBeNull();
    const [unscheduled] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, draft.campaignId));
    expect(unscheduled).toMatchObject({ status: "draft", scheduledAt: null });
  });

  it("a campaign is resent to its non-openers only once", async () => {
    const sent = await sentCampaign(["a@example.com"]);
    await resendToNonOpeners(ctx, sent.actor, sent.campaignId, { subject: "Again", waitHours: 24 });
    await expect(
      resendToNonOpeners(ctx, sent.actor, sent.campaignId, { subject: "And again", waitHours: 24 }),
    ).rejects.toMatchObject({ code: "campaign_already_resent" });
    expect(await ctx.db.select().from(campaigns).where(eq(campaigns.resendOf, sent.campaignId))).toHaveLength(1);
  });

  it("only a sent campaign is resent to its non-openers", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
    const { campaignId } = await createCampaign(ctx, actor, {
      brandId,
      topicId,
      name: "Draft",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    await expect(resendToNonOpeners(ctx, actor, campaignId, { subject: "Again", waitHours: 24 })).rejects.toMatchObject(
      { code: "campaign_not_sent" },
    );
  });

  it("the new subject and the wait are checked, each error naming its field", async () => {
    const sent = await sentCampaign(["a@example.com"]);
    await expect(
      resendToNonOpeners(ctx, sent.actor, sent.campaignId, { subject: " ", waitHours: 24 }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "subject" });
    await expect(
      resendToNonOpeners(ctx, sent.actor, sent.campaignId, { subject: "Again", waitHours: 0 }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "waitHours" });
  });

  it("another workspace's campaign is not found", async () => {
    const sent = await sentCampaign(["a@example.com"]);
    const other = await seedWorkspace(ctx);
    await expect(
      resendToNonOpeners(ctx, userActor(other.ownerUserId, other.workspaceId), sent.campaignId, {
        subject: "Again",
        waitHours: 24,
      }),
    ).rejects.toMatchObject({ code: "campaign_not_found" });
    expect(await ctx.db.select().from(campaigns).where(eq(campaigns.resendOf, sent.campaignId))).toHaveLength(0);
  });
});
