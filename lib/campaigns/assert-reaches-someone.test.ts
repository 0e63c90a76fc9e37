import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { campaigns, sends, verifiedAddresses, workspaceBilling } from "@/lib/db/schema";
import { clearForSending } from "@/lib/testing/clear-for-sending";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { scheduleCampaign, sendCampaignNow } from "./campaign-actions";
import { createCampaign } from "./save-campaign";

const { ctx, clock } = testCtx();

/** A workspace in its sandbox with two subscribers, neither of them a verified address, and a draft to them. */
async function sandboxedDraft(subject = "Hi") {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const actor = systemActor("test", workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  for (const email of ["ann@example.com", "bob@example.com"])
    await upsertContact(ctx, actor, { email, topicIds: [topicId] });
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId,
    topicId,
    name: "First",
    subject,
    html: "<p>Hi</p>",
  });
  return { workspaceId, brandId, topicId, actor, campaignId };
}

const statusOf = async (campaignId: string) =>
  (await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!.status;

describe("a campaign that would reach nobody", () => {
  it("a campaign that would reach nobody cannot be sent: in the sandbox with no verified subscriber, sending and scheduling are refused with no_recipients and it stays a draft", async () => {
    const { actor, campaignId } = await sandboxedDraft();
    await expect(sendCampaignNow(ctx, actor, campaignId)).rejects.toMatchObject({
      code: "no_recipients",
      message: expect.stringContaining("verified addresses"),
    });
    await expect(
      scheduleCampaign(ctx, actor, campaignId, new Date(clock.now().getTime() + 86_400_000)),
    ).rejects.toMatchObject({ code: "no_recipients" });
    expect(await statusOf(campaignId)).toBe("draft");
    expect(await ctx.db.select().from(sends).where(eq(sends.campaignId, campaignId))).toEqual([]);
  });

  it("one verified subscriber is enough: the campaign is sent", async () => {
    const { workspaceId, actor, campaignId } = await sandboxedDraft();
    await ctx.db.insert(verifiedAddresses).values({ workspaceId, email: "bob@example.com", verifiedAt: clock.now() });
    await sendCampaignNow(ctx, actor, campaignId);
    expect(await statusOf(campaignId)).toBe("sending");
  });

  it("a campaign whose every recipient lacks a merge tag it uses cannot be sent, and the refusal names the tag", async () => {
    const { workspaceId, actor, campaignId } = await sandboxedDraft("Hi {{contact.first_name}}");
    await clearForSending(ctx, workspaceId);
    await expect(sendCampaignNow(ctx, actor, campaignId)).rejects.toMatchObject({
      code: "no_recipients",
      message: expect.stringContaining("{{contact.first_name}}"),
    });
  });

  it("a campaign cannot be sent once the period's allowance is used up, and the refusal says so", async () => {
    const { workspaceId, actor, campaignId } = await sandboxedDraft();
    await clearForSending(ctx, workspaceId);
    await ctx.db
      .update(workspaceBilling)
      .set({ sendAllowance: 5, sendsUsed: 5 })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
    await expect(sendCampaignNow(ctx, actor, campaignId)).rejects.toMatchObject({
      code: "no_recipients",
      message: expect.stringContaining("allowance"),
    });
    expect(await statusOf(campaignId)).toBe("draft");
  });
});
