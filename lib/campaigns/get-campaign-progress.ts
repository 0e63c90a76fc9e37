import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { campaignCounts } from "./campaign-counts";
import type { CampaignProgress } from "./campaign-progress";
import { countNotSent } from "./count-not-sent";

/**
 * The campaign's status, counts and who was not sent to per reason, without its recipients: cheap
 * enough to ask every few seconds (the reasons are counted over the failed sends only).
 */
export async function getCampaignProgressOrThrow(
  ctx: Ctx,
  actor: Actor,
  campaignId: string,
): Promise<CampaignProgress> {
  const [campaign] = await ctx.db
    .select({ status: campaigns.status, recipients: campaigns.recipientCount })
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  const [counts, notSent] = await Promise.all([
    campaignCounts(ctx, campaignId),
    campaign.recipients === null ? [] : countNotSent(ctx, campaignId),
  ]);
  return { ...campaign, counts, notSent };
}
