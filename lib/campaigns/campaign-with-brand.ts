import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands, campaigns } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/** A campaign of the actor's workspace with its brand: what rendering one of its mails needs. */
export async function getCampaignWithBrandOrThrow(ctx: Ctx, actor: WorkspaceActor, campaignId: string) {
  const [row] = await ctx.db
    .select({ campaign: campaigns, brand: brands })
    .from(campaigns)
    .innerJoin(brands, eq(brands.id, campaigns.brandId))
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.workspaceId, actor.workspaceId)));
  if (!row) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  return row;
}
