import { describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { deleteTemplate } from "./delete-template";
import { duplicateTemplate } from "./duplicate-template";
import { previewTemplate } from "./preview-template";
import { renameTemplate } from "./rename-template";
import { getTemplateBodyOrThrow, listTemplates, saveCampaignAsTemplate } from "./templates";
import { updateTemplate } from "./update-template";

const { ctx } = testCtx();

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
const doc = (...content: object[]) => ({ type: "doc", content });

/** A workspace whose owner saved one campaign's HTML body as a template. */
async function withTemplate(html = "<p>Hello {{contact.first_name}}</p>") {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const member = userActor(ownerUserId, workspaceId);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const { campaignId } = await createCampaign(ctx, member, {
    brandId,
    topicId,
    name: "Spring",
    subject: "Hi",
    html,
    text: "Hello",
  });
  const { templateId } = await saveCampaignAsTemplate(ctx, member, { campaignId, name: "Newsletter" });
  return { workspaceId, brandId, member, templateId };
}

describe("managing templates", () => {
  it("a template is renamed and keeps its body; an empty name is refused next to the name", async () => {
    const { member, templateId } = await withTemplate();
    await renameTemplate(ctx, member, { templateId, name: "  Monthly letter " });
    expect(await getTemplateBodyOrThrow(ctx, member, templateId)).toEqual({
      name: "Monthly letter",
      document: null,
      html: "<p>Hello {{contact.first_name}}</p>",
      text: "Hello",
    });
    await expect(renameTemplate(ctx, member, { templateId, name: " " })).rejects.toMatchObject({
      code: "validation_failed",
      param: "name",
    });
  });

  it("a duplicate is a new template named Copy of the original with the same body, and deleting it leaves the original", async () => {
    const { member, templateId } = await withTemplate();
    const { templateId: copyId } = await duplicateTemplate(ctx, member, templateId);
    expect(copyId).not.toBe(templateId);
    expect(await getTemplateBodyOrThrow(ctx, member, copyId)).toEqual({
      ...(await getTemplateBodyOrThrow(ctx, member, templateId)),
      name: "Copy of Newsletter",
    });
    await deleteTemplate(ctx, member, copyId);
    expect((await listTemplates(ctx, member)).map((template) => template.id)).toEqual([templateId]);
    await expect(getTemplateBodyOrThrow(ctx, member, copyId)).rejects.toMatchObject({ code: "template_not_found" });
  });

  it("a template edited in blocks keeps its document with the HTML and text rendered from it; edited as HTML it drops the document", async () => {
    const { member, templateId } = await withTemplate();
    const document = doc(paragraph("Spring is here"));
    await updateTemplate(ctx, member, { templateId, name: "Spring", document, html: "" });
    const inBlocks = await getTemplateBodyOrThrow(ctx, member, templateId);
    expect(inBlocks).toMatchObject({ name: "Spring", document });
    expect(inBlocks.html).toMatch(/^<!DOCTYPE html[\s\S]*Spring is here/);
    expect(inBlocks.text).toContain("Spring is here");
    await updateTemplate(ctx, member, { templateId, name: "Spring", document: null, html: "<p>By hand</p>", text: "" });
    expect(await getTemplateBodyOrThrow(ctx, member, templateId)).toEqual({
      name: "Spring",
      document: null,
      html: "<p>By hand</p>",
      text: null,
    });
  });

  it("an edit is refused as a campaign would be: a merge tag that does not exist on html, an empty body on html, a document the editor does not make on document", async () => {
    const { member, templateId } = await withTemplate();
    await expect(
      updateTemplate(ctx, member, { templateId, name: "N", html: "<p>{{contact.nickname}}</p>" }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "html" });
    await expect(
      updateTemplate(ctx, member, {
        templateId,
        name: "N",
        document: doc({ type: "paragraph", content: [{ type: "mergeTag", attrs: { id: "contact.nickname" } }] }),
        html: "",
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      param: "html",
    });
    await expect(updateTemplate(ctx, member, { templateId, name: "N", html: "  " })).rejects.toMatchObject({
      code: "validation_failed",
      param: "html",
    });
    await expect(
      updateTemplate(ctx, member, {
        templateId,
        name: "N",
        document: { type: "doc", content: [{ type: "script" }] },
        html: "",
      }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      param: "document",
    });
    expect((await getTemplateBodyOrThrow(ctx, member, templateId)).html).toBe("<p>Hello {{contact.first_name}}</p>");
  });

  it("the preview shows the template as a campaign of the workspace's first brand would look: made-up values, a custom attribute by its name, and the one footer", async () => {
    const { member, templateId } = await withTemplate();
    await defineAttribute(ctx, member, { key: "plan", type: "string" });
    await updateTemplate(ctx, member, {
      templateId,
      name: "Plans",
      document: doc(paragraph("Hello"), { type: "brandFooter" }),
      html: "",
    });
    const blank = await previewTemplate(ctx, member, templateId);
    expect(blank).toMatchObject({ name: "Plans", blocks: true, brandName: expect.stringMatching(/^Brand /) });
    expect(blank.html.split(">Unsubscribe</a>")).toHaveLength(2);
    expect(blank.html.split("1 Main Street, Springfield")).toHaveLength(2);
    await updateTemplate(ctx, member, {
      templateId,
      name: "Plans",
      html: "<p>Hi {{contact.first_name}}, on {{contact.plan}}</p>",
    });
    const html = await previewTemplate(ctx, member, templateId);
    expect(html).toMatchObject({ blocks: false });
    expect(html.html).toContain("<p>Hi Ada, on [plan]</p>");
    expect(html.html).toContain(">Manage preferences</a>");
  });

  it("another workspace's template is not found by rename, edit, duplicate, delete or preview, and stays as it was", async () => {
    const theirs = await withTemplate();
    const mine = await withTemplate();
    const { templateId } = theirs;
    for (const call of [
      () => renameTemplate(ctx, mine.member, { templateId, name: "Taken" }),
      () => updateTemplate(ctx, mine.member, { templateId, name: "Taken", html: "<p>Taken</p>" }),
      () => duplicateTemplate(ctx, mine.member, templateId),
      () => deleteTemplate(ctx, mine.member, templateId),
      () => previewTemplate(ctx, mine.member, templateId),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "template_not_found" });
    }
    expect(await getTemplateBodyOrThrow(ctx, theirs.member, templateId)).toMatchObject({
      name: "Newsletter",
      html: "<p>Hello {{contact.first_name}}</p>",
    });
    expect((await listTemplates(ctx, mine.member)).map((template) => template.id)).toEqual([mine.templateId]);
  });
});
