import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { getTemplateBodyOrThrow, listTemplates, saveCampaignAsTemplate } from "./templates";

const { ctx } = testCtx();

describe("templates", () => {
  it("a campaign's body saved as a template starts a new campaign with the same document, HTML and text", async () => {
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
    const member = userActor(ownerUserId, workspaceId);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const document = { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Hello" }] }] };
    const { campaignId } = await createCampaign(
      ctx,
      member,
      { brandId, topicId, name: "Spring", subject: "Hi", html: "<p>Hello</p>", text: "Hello" },
      { document },
    );
    const { templateId } = await saveCampaignAsTemplate(ctx, member, { campaignId, name: "  Newsletter  " });
    expect(await listTemplates(ctx, member)).toEqual([
      { id: templateId, name: "Newsletter", blocks: true, createdAt: expect.any(Date) },
    ]);
    expect(await getTemplateBodyOrThrow(ctx, member, templateId)).toEqual({
      name: "Newsletter",
      document,
      html: "<p>Hello</p>",
      text: "Hello",
    });
    await expect(saveCampaignAsTemplate(ctx, member, { campaignId, name: "" })).rejects.toMatchObject({
      code: "validation_failed",
      param: "name",
    });
  });

  it("another workspace's templates and campaigns are not found, and not listed", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, b.workspaceId, b.brandId);
    const { campaignId } = await createCampaign(ctx, systemActor("test", b.workspaceId), {
      brandId: b.brandId,
      topicId,
      name: "Theirs",
      subject: "Hi",
      html: "<p>x</p>",
    });
    const { templateId } = await saveCampaignAsTemplate(ctx, systemActor("test", b.workspaceId), {
      campaignId,
      name: "Theirs",
    });
    const memberOfA = userActor(a.ownerUserId, a.workspaceId);
    await expect(saveCampaignAsTemplate(ctx, memberOfA, { campaignId, name: "Taken" })).rejects.toMatchObject({
      code: "campaign_not_found",
    });
    await expect(getTemplateBodyOrThrow(ctx, memberOfA, templateId)).rejects.toMatchObject({
      code: "template_not_found",
    });
    expect(await listTemplates(ctx, memberOfA)).toEqual([]);
  });
});
