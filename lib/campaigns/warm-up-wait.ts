import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { campaignSendingDomain, warmUpToday } from "@/lib/domains/domain-warm-up";
import { nextWarmUpDayStart } from "@/lib/domains/warm-up-schedule";

import { notHeldForAbWinner } from "./ab-test-dispatch";
import { sendsOfCampaign } from "./send-id-range";

export const WARM_UP_WAIT = "warm_up_cap";

/** What the next batch of a campaign may take under its domain's warm-up: null for no cap; 0 with when to go on. */
export interface WarmUpAllowance {
  allowance: number | null;
  waitUntil: string | null;
}

/**
 * System: dispatch asks before each batch (dispatch-batch.ts). Under the cap it answers what is left of the day's; with the
 * day's cap used and sends still queued it records on the campaign that it waits for the next UTC day
 * (its page says so) and answers when that starts, for the run to sleep until then. The claim enforces
 * the cap again under a lock: this answer only spares a batch that could take nothing.
 */
export async function checkWarmUpAllowance(ctx: Ctx, campaignId: string): Promise<WarmUpAllowance> {
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  // Asked before every batch: the campaign is written only when it stops waiting.
  const unlimited = async (): Promise<WarmUpAllowance> => {
    if (campaign?.waitingReason === WARM_UP_WAIT)
      await ctx.db
        .update(campaigns)
        .set({ waitingUntil: null, waitingReason: null })
        .where(and(eq(campaigns.id, campaignId), eq(campaigns.waitingReason, WARM_UP_WAIT)));
    return { allowance: null, waitUntil: null };
  };
  // Not sending any more: the batch's claim says why and stops the run.
  if (!campaign || campaign.status !== "sending") return unlimited();
  const domain = await campaignSendingDomain(ctx, campaign);
  if (!domain?.warmUp) return unlimited();
  const today = await warmUpToday(ctx, domain);
  if (today.cap === null) return unlimited();
  const left = today.cap - today.used;
  if (left > 0) {
    await unlimited();
    return { allowance: left, waitUntil: null };
  }
  // A campaign that has sent its last recipient does not wait a night to be marked sent.
  const [pending] = await ctx.db.execute<{ left: boolean }>(sql`
    select exists (select 1 from ${sends} where ${sendsOfCampaign(campaign)} and state in ('queued', 'sending') ${notHeldForAbWinner(campaign)}) as left`);
  if (!pending?.left) return unlimited();
  const until = nextWarmUpDayStart(ctx.clock.now());
  await ctx.db
    .update(campaigns)
    .set({ waitingUntil: until, waitingReason: WARM_UP_WAIT })
    .where(eq(campaigns.id, campaignId));
  return { allowance: 0, waitUntil: until.toISOString() };
}

/** A sending campaign waiting for its domain's next warm-up day, as its page tells it; null when it is not. */
export interface CampaignWarmUpWait {
  hostname: string;
  domainId: string;
  used: number;
  cap: number;
  until: Date;
}

export async function campaignWarmUpWait(
  ctx: Ctx,
  actor: Actor,
  campaignId: string,
): Promise<CampaignWarmUpWait | null> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign || campaign.status !== "sending" || campaign.waitingReason !== WARM_UP_WAIT) return null;
  if (!campaign.waitingUntil || campaign.waitingUntil <= ctx.clock.now()) return null;
  const domain = await campaignSendingDomain(ctx, campaign);
  if (!domain) return null;
  const today = await warmUpToday(ctx, domain);
  if (today.cap === null) return null;
  return {
    hostname: domain.hostname,
    domainId: domain.id,
    used: today.used,
    cap: today.cap,
    until: campaign.waitingUntil,
  };
}
