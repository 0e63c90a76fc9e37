import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { campaignFromEditor } from "./campaign-body";
import { getCampaignWithBrandOrThrow } from "./campaign-with-brand";
import { renderCampaignMail, SAMPLE_CONTACT } from "./render-campaign-mail";
import { createCampaign } from "./save-campaign";

const { ctx } = testCtx();

describe("a campaign's preview text and the mail's edges", () => {
  it("preview text takes merge tags by the same rule: an unknown one is refused on previewText", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    await expect(
      createCampaign(ctx, systemActor("test", workspaceId), {
        brandId,
        topicId,
        name: "N",
        subject: "S",
        previewText: "For {{contact.nickname}}",
        html: "<p>x</p>",
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      param: "previewText",
    });
  });

  it("the preview text is filled per recipient and hidden first in the body; the consent footer and the open pixel sit inside </body> of a whole document", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const actor = systemActor("test", workspaceId);
    const html = '<html><head></head><body style="margin:0"><p>Hello</p></body></html>';
    const { campaignId } = await createCampaign(ctx, actor, {
      brandId,
      topicId,
      name: "N",
      subject: "S",
      previewText: "Just for {{contact.first_name}}",
      html,
    });
    const { campaign, brand } = await getCampaignWithBrandOrThrow(ctx, actor, campaignId);
    const mail = renderCampaignMail(campaign, brand, SAMPLE_CONTACT, "snd_sample", { tracked: true });
    if ("missing" in mail) throw new Error(`missing ${mail.missing}`);
    expect(mail.html).toMatch(
      /^<html><head><\/head><body style="margin:0"><div style="display:none[^"]*">Just for Ada<\/div><p>Hello<\/p>/,
    );
    const inBody = mail.html.slice(0, mail.html.lastIndexOf("</body>"));
    expect(inBody).toContain("/t/o/");
    expect(inBody).toContain("Unsubscribe");
    expect(mail.html.endsWith("</body></html>")).toBe(true);

    const nameless = renderCampaignMail(campaign, brand, { ...SAMPLE_CONTACT, firstName: null }, "snd_sample", {
      tracked: false,
    });
    expect(nameless).toEqual({ missing: "contact.first_name" });
  });

  it("an attribute is a contact's own value only: one named constructor is a missing merge tag for a contact without it, in the subject and the body", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const actor = systemActor("test", workspaceId);
    await defineAttribute(ctx, actor, { key: "constructor", type: "string" });
    const { campaignId } = await createCampaign(ctx, actor, {
      brandId,
      topicId,
      name: "N",
      subject: "For {{contact.constructor}}",
      html: "<p>Built by {{contact.constructor}}</p>",
    });
    const { campaign, brand } = await getCampaignWithBrandOrThrow(ctx, actor, campaignId);
    expect(renderCampaignMail(campaign, brand, SAMPLE_CONTACT, "snd_sample", { tracked: false })).toEqual({
      missing: "contact.constructor",
    });
    expect(
      renderCampaignMail({ ...campaign, subject: "S" }, brand, SAMPLE_CONTACT, "snd_sample", { tracked: false }),
    ).toEqual({ missing: "contact.constructor" });
    const mail = renderCampaignMail(
      campaign,
      brand,
      { ...SAMPLE_CONTACT, attributes: { constructor: "Ada & co" } },
      "snd_sample",
      { tracked: false },
    );
    if ("missing" in mail) throw new Error(`missing ${mail.missing}`);
    expect(mail.subject).toBe("For Ada & co");
    expect(mail.html).toContain("<p>Built by Ada &amp; co</p>");
  });
});

describe("the one footer of a campaign mail", () => {
  const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
  const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
  /** The mail's 600 px column: from the container's opening tag to the end of the last table in the body. */
  const columnOf = (html: string) =>
    html.slice(html.search(/<table[^>]*max-width:600px/), html.lastIndexOf("</table>"));

  async function mailOf(body: { document: Record<string, unknown> } | { html: string; text: string }) {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, workspaceId, brandId);
    const actor = systemActor("test", workspaceId);
    const [input, source] = await campaignFromEditor(ctx, actor, {
      brandId,
      topicId,
      name: "N",
      subject: "S",
      html: "",
      ...body,
    });
    const { campaignId } = await createCampaign(ctx, actor, input, source);
    const { campaign, brand } = await getCampaignWithBrandOrThrow(ctx, actor, campaignId);
    const mail = renderCampaignMail(campaign, brand, SAMPLE_CONTACT, "snd_sample", { tracked: false });
    if ("missing" in mail) throw new Error(`missing ${mail.missing}`);
    return { mail, brand };
  }

  it("a campaign written in blocks with a footer block carries one footer, where the block is inside its 600 px column: one postal address and one unsubscribe link in each part", async () => {
    const { mail, brand } = await mailOf({
      document: { type: "doc", content: [paragraph("Hello"), { type: "brandFooter" }, paragraph("P.S. see you soon")] },
    });
    expect(count(mail.html, brand.postalAddress)).toBe(1);
    expect(count(mail.text, brand.postalAddress)).toBe(1);
    expect(count(mail.html, ">Unsubscribe</a>")).toBe(1);
    expect(count(mail.text, "Unsubscribe: http")).toBe(1);
    const column = columnOf(mail.html);
    expect(column.indexOf(">Unsubscribe</a>")).toBeGreaterThan(column.indexOf("Hello"));
    expect(column.indexOf(">Unsubscribe</a>")).toBeLessThan(column.indexOf("P.S. see you soon"));
    expect(column).toContain(`${brand.legalName}, ${brand.postalAddress}`);
  });

  it("a campaign written in blocks without a footer block still carries the footer at the end of its 600 px column, in the mail's font, with the unsubscribe and preference links and the postal address in both parts", async () => {
    const { mail, brand } = await mailOf({ document: { type: "doc", content: [paragraph("Hello")] } });
    const column = columnOf(mail.html);
    for (const part of [">Unsubscribe</a>", ">Manage preferences</a>", `${brand.legalName}, ${brand.postalAddress}`])
      expect(column).toContain(part);
    expect(column.slice(column.indexOf(">Unsubscribe</a>"))).not.toContain("Hello");
    expect(mail.html).toMatch(/<p style="font-family:Helvetica, Arial, sans-serif[^"]*"><a [^>]*>Unsubscribe<\/a>/);
    expect(mail.html).not.toContain("<!--consent-footer-->");
    for (const part of ["Unsubscribe: http", "Preferences: http", `${brand.legalName}, ${brand.postalAddress}`])
      expect(count(mail.text, part)).toBe(1);
  });

  it("a campaign written as HTML gets the footer after its body, in a sans-serif column of its own at most 600 px wide; a footer slot it wrote itself is not honoured", async () => {
    const { mail, brand } = await mailOf({
      html: '<div style="display:none"><!--consent-footer--></div><p>Hello</p>',
      text: "Hello",
    });
    const footer = mail.html.slice(mail.html.indexOf("<p>Hello</p>"));
    expect(footer).toMatch(
      /^<p>Hello<\/p><table[^>]*><tr><td[^>]*><table[^>]*max-width:600px[^>]*><tr><td><hr[^>]*><p style="font-family:Helvetica, Arial, sans-serif/,
    );
    expect(count(mail.html, ">Unsubscribe</a>")).toBe(1);
    expect(count(mail.html, brand.postalAddress)).toBe(1);
    expect(mail.text).toMatch(/^Hello\n--\nUnsubscribe: http/);
  });
});
