import "server-only";

import type { WorkspaceActor } from "@/lib/actor";
import { mergeTagsIn } from "@/lib/campaigns/merge-tags";
import { renderCampaignMail, SAMPLE_CONTACT } from "@/lib/campaigns/render-campaign-mail";
import type { Ctx } from "@/lib/context";
import { renderDocument } from "@/lib/email-blocks/render-document";

import { templateBrand } from "./template-brand";
import { getTemplateBodyOrThrow } from "./templates";

export interface TemplatePreview {
  name: string;
  /** Written in the block editor (else as HTML). */
  blocks: boolean;
  /** The mail a campaign of `brandName` started from it would send, with made-up values and the footer. */
  html: string;
  /** Null when the workspace has no brand: the body is shown as it is, without a footer. */
  brandName: string | null;
}

/**
 * A template as a campaign started from it would look: rendered as dispatch
 * renders a mail (the footer included), with the workspace's first brand and
 * made-up values for every merge tag, a custom attribute showing its name.
 */
export async function previewTemplate(ctx: Ctx, actor: WorkspaceActor, templateId: string): Promise<TemplatePreview> {
  const template = await getTemplateBodyOrThrow(ctx, actor, templateId);
  const brand = await templateBrand(ctx, actor);
  const blocks = Boolean(template.document);
  if (!brand) return { name: template.name, blocks, html: template.html, brandName: null };
  const html = template.document ? (await renderDocument(template.document, brand)).html : template.html;
  const attributes = Object.fromEntries(
    mergeTagsIn(`${html} ${template.text ?? ""}`)
      .filter((tag) => tag.startsWith("contact."))
      .map((tag) => [tag.slice("contact.".length), `[${tag.slice("contact.".length)}]`]),
  );
  const mail = renderCampaignMail(
    {
      id: "cmp_preview",
      topicId: "top_preview",
      subject: "",
      previewText: null,
      html,
      text: template.text,
      document: template.document,
    },
    brand,
    { ...SAMPLE_CONTACT, attributes },
    "snd_preview",
    { tracked: false },
  );
  return { name: template.name, blocks, html: "missing" in mail ? html : mail.html, brandName: brand.name };
}
