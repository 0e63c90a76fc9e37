import { describe, expect, it } from "vitest";
import { systemActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
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

  it("an attribute is a contact's own value only: one named constructor is a missing merge tag for a contact without it, in the subject and the body", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const actor = systemActor("test", workspaceId);
    await defineAttribute(ctx, actor, { key: "constructor", type: "string" });
    const { campaignId } = await createCampaign(ctx, actor, { brandId, topicId, name: "N", subject: "For {{contact.constructor}}", html: "<p>Built by {{contact.constructor}}</p>" });
    const { campaign, brand } = await getCampaignWithBrand(ctx, actor, campaignId);
    expect(renderCampaignMail(campaign, brand, SAMPLE_CONTACT, "snd_sample", { tracked: false })).toEqual({ missing: "contact.constructor" });
    expect(renderCampaignMail({ ...campaign, subject: "S" }, brand, SAMPLE_CONTACT, "snd_sample", { tracked: false })).toEqual({ missing: "contact.constructor" });
    const mail = renderCampaignMail(campaign, brand, { ...SAMPLE_CONTACT, attributes: { constructor: "Ada & co" } }, "snd_sample", { tracked: false });
    if ("missing" in mail) throw new Error(`missing ${mail.missing}`);
    expect(mail.subject).toBe("For Ada & co");
    expect(mail.html).toContain("<p>Built by Ada &amp; co</p>");
  });
});
