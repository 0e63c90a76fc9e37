import "server-only";

import { and, asc, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { campaignCounts } from "./campaign-counts";

/**
 * The sender's own view of a campaign (dashboard, admin CLI): counts, and each
 * recipient who was not sent to with the reason, such as the missing merge
 * tag. The public reports never name recipients.
 */
export async function showCampaign(ctx: Ctx, actor: Actor, campaignId: string) {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  const skipped = await ctx.db
    .select({ email: sends.email, reason: sends.failureReason })
    .from(sends)
    .where(and(eq(sends.campaignId, campaignId), eq(sends.state, "failed")))
    .orderBy(asc(sends.email));
  return {
    campaign,
    counts: await campaignCounts(ctx, campaignId),
    skipped: skipped.map((s) => ({ email: s.email, reason: s.reason ?? "" })),
  };
}
