import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";
import { renderDocument } from "@/lib/email-blocks/render-document";
import { notFound } from "@/lib/errors";

import type { CampaignInput } from "./campaign-schemas";

/**
 * A campaign as the dashboard's form sends it, ready to save: a body written
 * in the block editor is rendered to its HTML and text parts here (the brand
 * fills its logo), and the document is kept as the body's source. A body
 * written as HTML passes through. Kept apart from save-campaign.ts: the
 * renderer needs react-dom/server, which the admin CLI's server-only
 * environment does not load.
 */
export async function campaignFromEditor(
  ctx: Ctx,
  actor: WorkspaceActor,
  { document, ...input }: CampaignInput & { document?: Record<string, unknown> | null },
): Promise<[CampaignInput, { document: Record<string, unknown> | null }]> {
  if (!document) return [input, { document: null }];
  const [brand] = await ctx.db
    .select({ name: brands.name, logoUrl: brands.logoUrl })
    .from(brands)
    .where(and(eq(brands.id, input.brandId), eq(brands.workspaceId, actor.workspaceId)));
  if (!brand) throw notFound("brand_not_found", `No brand ${input.brandId}.`, "brandId");
  const body = await renderDocument(document, brand);
  return [{ ...input, html: body.html, text: body.text }, { document }];
}
