import "server-only";

import { and, eq, isNotNull, or } from "drizzle-orm";

import { inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaignGuardrails, campaigns, type CampaignStatus } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { campaignHealth, type CampaignHealth } from "./campaign-health";

/** A campaign's health against its workspace's thresholds, as its page shows it. */
export async function getCampaignHealthOrThrow(ctx: Ctx, actor: Actor, campaignId: string): Promise<CampaignHealth> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  return campaignHealth(ctx, campaign);
}

export interface CampaignAtRisk {
  campaign: { id: string; name: string; status: CampaignStatus };
  health: CampaignHealth;
}

/**
 * The overview's list: the workspace's sending campaigns past a warning threshold, and those the
 * guardrail paused, waiting for a person. Only sending and guardrail-paused campaigns are judged:
 * a workspace sends a handful at a time.
 */
export async function listCampaignsAtRisk(ctx: Ctx, actor: Actor): Promise<CampaignAtRisk[]> {
  requireActorWorkspace(actor);
  const rows = await ctx.db
    .select({ campaign: campaigns })
    .from(campaigns)
    .leftJoin(campaignGuardrails, eq(campaignGuardrails.campaignId, campaigns.id))
    .where(
      and(
        inActorWorkspace(actor, campaigns.workspaceId),
        or(
          eq(campaigns.status, "sending"),
          and(eq(campaigns.status, "paused"), isNotNull(campaignGuardrails.pauseReason)),
        ),
      ),
    )
    .orderBy(campaigns.id);
  const atRisk: CampaignAtRisk[] = [];
  for (const { campaign } of rows) {
    const health = await campaignHealth(ctx, campaign);
    const paused = campaign.status === "paused" && health.pausedBy !== null;
    if (paused || health.verdict !== "ok")
      atRisk.push({ campaign: { id: campaign.id, name: campaign.name, status: campaign.status }, health });
  }
  return atRisk;
}
