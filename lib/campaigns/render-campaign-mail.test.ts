import { describe, expect, it } from "vitest";
import { systemActor } from "@/lib/actor";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { getCampaignWithBrand } from "./campaign-with-brand";
import { renderCampaignMail, SAMPLE_CONTACT } from "./render-campaign-mail";
import { createCampaign } from "./save-campaign";

const { ctx } = testCtx();

describe("a campaign's preview text and the mail's edges", () => {
  it("preview text takes merge tags by the same rule: an unknown one is refused on previewText", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    await expect(createCampaign(ctx, systemActor("test", workspaceId), { brandId, topicId, name: "N", subject: "S", previewText: "For {{contact.nickname}}", html: "<p>x</p>" })).rejects.toMatchObject(
      {
        code: "validation_failed",
        param: "previewText",
      },
    );
  });

  it("the preview text is filled per recipient and hidden first in the body; the consent footer and the open pixel sit inside </body> of a whole document", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const actor = systemActor("test", workspaceId);
    const html = '<html><head></head><body style="margin:0"><p>Hello</p></body></html>';
    const { campaignId } = await createCampaign(ctx, actor, { brandId, topicId, name: "N", subject: "S", previewText: "Just for {{contact.first_name}}", html });
    const { campaign, brand } = await getCampaignWithBrand(ctx, actor, campaignId);
    const mail = renderCampaignMail(campaign, brand, SAMPLE_CONTACT, "snd_sample", { tracked: true });
    if ("missing" in mail) throw new Error(`missing ${mail.missing}`);
    expect(mail.html).toMatch(/^<html><head><\/head><body style="margin:0"><div style="display:none[^"]*">Just for Ada<\/div><p>Hello<\/p>/);
    const inBody = mail.html.slice(0, mail.html.lastIndexOf("</body>"));
    expect(inBody).toContain("/t/o/");
    expect(inBody).toContain("Unsubscribe");
    expect(mail.html.endsWith("</body></html>")).toBe(true);

    const nameless = renderCampaignMail(campaign, brand, { ...SAMPLE_CONTACT, firstName: null }, "snd_sample", { tracked: false });
    expect(nameless).toEqual({ missing: "contact.first_name" });
  });
});
