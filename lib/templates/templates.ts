import "server-only";

import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, templates } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { nameField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";

export const saveTemplateSchema = z.strictObject({ campaignId: z.string(), name: nameField });

/** A campaign's body (document or HTML, and its text part) kept under a name, for new campaigns to start from. */
export async function saveCampaignAsTemplate(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: z.input<typeof saveTemplateSchema>,
): Promise<{ templateId: string }> {
  const { campaignId, name } = parseInput(saveTemplateSchema, input);
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.workspaceId, actor.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  const templateId = newId("tpl");
  await ctx.db.insert(templates).values({
    id: templateId,
    workspaceId: actor.workspaceId,
    name,
    document: campaign.document,
    html: campaign.html,
    text: campaign.text,
  });
  return { templateId };
}

/** The workspace's templates, newest first, without their bodies: for a picker and the templates screen. */
export function listTemplates(
  ctx: Ctx,
  actor: WorkspaceActor,
): Promise<{ id: string; name: string; blocks: boolean; createdAt: Date }[]> {
  return ctx.db
    .select({
      id: templates.id,
      name: templates.name,
      blocks: sql<boolean>`${templates.document} is not null`,
      createdAt: templates.createdAt,
    })
    .from(templates)
    .where(eq(templates.workspaceId, actor.workspaceId))
    .orderBy(desc(templates.id))
    .limit(200);
}

/** One template's body, to fill a new campaign with; another workspace's is not found. */
export async function getTemplateBodyOrThrow(ctx: Ctx, actor: WorkspaceActor, templateId: string) {
  const [template] = await ctx.db
    .select({ name: templates.name, document: templates.document, html: templates.html, text: templates.text })
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.workspaceId, actor.workspaceId)));
  if (!template) throw notFound("template_not_found", `No template ${templateId}.`);
  return template;
}
