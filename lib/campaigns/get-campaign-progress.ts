import "server-only";
import { and, eq } from "drizzle-orm";
import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { campaignCounts } from "./campaign-counts";
import type { CampaignProgress } from "./campaign-progress";

/** The campaign's status and counts, without its recipients: cheap enough to ask every few seconds. */
export async function getCampaignProgress(ctx: Ctx, actor: Actor, campaignId: string): Promise<CampaignProgress> {
  const [campaign] = await ctx.db
    .select({ status: campaigns.status, recipients: campaigns.recipientCount })
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  return { ...campaign, counts: await campaignCounts(ctx, campaignId) };
}
