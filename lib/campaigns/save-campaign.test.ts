import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { campaigns } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { canMove } from "./campaign-status";
import { createCampaign, updateCampaign } from "./save-campaign";

const { ctx } = testCtx();

async function setup() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const actor = systemActor("test", workspaceId);
  const base = {
    brandId,
    topicId,
    name: "April news",
    subject: "Hi {{contact.first_name}}",
    html: "<p>Hello from {{brand.name}}</p>",
  };
  return { workspaceId, brandId, topicId, actor, base };
}

describe("campaigns", () => {
  it("a new campaign is a draft of one topic, optionally narrowed to a list", async () => {
    const { brandId, actor, base } = await setup();
    const { listId } = await createList(ctx, actor, { brandId, name: "VIP" });
    const { campaignId } = await createCampaign(ctx, actor, { ...base, listId });
    const [row] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(row).toMatchObject({ status: "draft", listId, subject: "Hi {{contact.first_name}}", recipientCount: null });
    expect(campaignId).toMatch(/^cmp_/);
  });

  it("an unknown merge tag is refused when the campaign is saved; defined attributes are allowed", async () => {
    const { actor, base } = await setup();
    await expect(createCampaign(ctx, actor, { ...base, html: "<p>Code {{promo.code}}</p>" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "html",
    });
    await expect(createCampaign(ctx, actor, { ...base, subject: "For {{contact.plan}}" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "subject",
    });
    await defineAttribute(ctx, actor, { key: "plan", type: "string" });
    await expect(createCampaign(ctx, actor, { ...base, subject: "For {{contact.plan}}" })).resolves.toMatchObject({
      campaignId: expect.any(String),
    });
  });

  it("the topic must be the brand's, and brand, topic and list must be the workspace's", async () => {
    const { actor, base } = await setup();
    const { brandId: other } = await createBrand(ctx, actor, {
      name: "B2",
      legalName: "B2 Ltd",
      postalAddress: "2 St",
      websiteUrl: "https://b2.test",
      senderEmail: "n@b2.test",
    });
    await expect(createCampaign(ctx, actor, { ...base, brandId: other })).rejects.toMatchObject({
      code: "validation_failed",
      param: "topicId",
    });
    const elsewhere = await setup();
    await expect(createCampaign(ctx, actor, { ...base, topicId: elsewhere.topicId })).rejects.toMatchObject({
      code: "topic_not_found",
    });
    await expect(createCampaign(ctx, actor, { ...base, listId: "ls_nope" })).rejects.toMatchObject({
      code: "list_not_found",
    });
    await expect(createCampaign(ctx, actor, { ...base, brandId: elsewhere.brandId })).rejects.toMatchObject({
      code: "brand_not_found",
    });
  });

  it("drafts and scheduled campaigns can be edited; sending and finished ones cannot", async () => {
    const { actor, base } = await setup();
    const { campaignId } = await createCampaign(ctx, actor, base);
    await updateCampaign(ctx, actor, campaignId, { ...base, name: "Renamed" });
    expect((await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!.name).toBe("Renamed");
    await ctx.db.update(campaigns).set({ status: "sending" }).where(eq(campaigns.id, campaignId));
    await expect(updateCampaign(ctx, actor, campaignId, base)).rejects.toMatchObject({ code: "campaign_not_editable" });
  });

  it("campaign statuses move only as docs/readings.md says", () => {
    expect(canMove("draft", "scheduled")).toBe(true);
    expect(canMove("draft", "sending")).toBe(true);
    expect(canMove("scheduled", "draft")).toBe(true);
    expect(canMove("sending", "paused")).toBe(true);
    expect(canMove("paused", "sending")).toBe(true);
    expect(canMove("paused", "cancelled")).toBe(true);
    expect(canMove("draft", "paused")).toBe(false);
    expect(canMove("sent", "sending")).toBe(false);
    expect(canMove("cancelled", "draft")).toBe(false);
    expect(canMove("scheduled", "paused")).toBe(false);
  });
});
