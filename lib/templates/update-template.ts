import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { assertKnownMergeTags } from "@/lib/campaigns/merge-tags";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, templates } from "@/lib/db/schema";
import { renderDocument } from "@/lib/email-blocks/render-document";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { templateBrand } from "./template-brand";
import { updateTemplateSchema, type UpdateTemplateInput } from "./template-schemas";

/**
 * A template's new name and body, written in blocks (its HTML and text parts
 * are rendered here) or as HTML. Its merge tags must exist, as a campaign's
 * must: a campaign started from it is refused for the same tags.
 */
export async function updateTemplate(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: UpdateTemplateInput,
): Promise<{ templateId: string }> {
  const { templateId, name, document, html, text } = parseInput(updateTemplateSchema, input);
  const [template] = await ctx.db
    .select({ id: templates.id })
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.workspaceId, actor.workspaceId)));
  if (!template) throw notFound("template_not_found", `No template ${templateId}.`);
  const brand = document ? await templateBrand(ctx, actor) : null;
  const body = document
    ? await renderDocument(document, brand ?? { name: "Your brand", logoUrl: null })
    : { html, text: text ?? null };
  const definitions = await ctx.db
    .select({ key: attributeDefinitions.key })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, actor.workspaceId));
  assertKnownMergeTags({ html: body.html, text: body.text }, new Set(definitions.map((definition) => definition.key)));
  await ctx.db
    .update(templates)
    .set({ name, document: document ?? null, html: body.html, text: body.text })
    .where(eq(templates.id, templateId));
  return { templateId };
}
