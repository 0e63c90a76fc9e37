import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { recordCampaignEvent } from "@/lib/campaigns/campaign-events";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaignGuardrails, campaigns } from "@/lib/db/schema";

import { campaignHealth, currentHarmCounts } from "./campaign-health";

/**
 * Internal: a send's first permanent bounce, counted for the guardrail in the transaction that records it
 * (the report counters count bounces of every type).
 */
export async function countHardBounce(ctx: Ctx, send: { campaignId: string; workspaceId: string }): Promise<void> {
  await ctx.db
    .insert(campaignGuardrails)
    .values({ campaignId: send.campaignId, workspaceId: send.workspaceId, hardBounced: 1 })
    .onConflictDoUpdate({
      target: campaignGuardrails.campaignId,
      set: { hardBounced: sql`${campaignGuardrails.hardBounced} + 1` },
    });
}

/**
 * System: the guardrail, where harm shows (a complaint or permanent bounce applied to one of the
 * campaign's sends) and after each batch of its dispatch. A sending campaign whose figures, or its
 * brand's over the last 24 hours, reach a stop threshold is paused with the reason, as a manual pause
 * is (campaign.paused; dispatch stops before its next batch). Returns whether this call paused it.
 */
export async function guardCampaign(ctx: Ctx, campaignId: string): Promise<{ paused: boolean }> {
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!campaign || campaign.status !== "sending") return { paused: false };
  const health = await campaignHealth(ctx, campaign);
  if (health.verdict !== "stop") return { paused: false };
  return withTransaction(ctx, async (tx) => {
    // Guarded on the status: a pause, cancel or completion that landed meanwhile wins, and two checks pause once.
    const [paused] = await tx.db
      .update(campaigns)
      .set({ status: "paused", pausedAt: tx.clock.now(), updatedAt: tx.clock.now() })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, "sending")))
      .returning();
    if (!paused) return { paused: false };
    const on = await currentHarmCounts(tx, paused);
    const record = { pauseReason: health.reason, pauseScope: health.scope, pausedOn: on };
    await tx.db
      .insert(campaignGuardrails)
      .values({ campaignId, workspaceId: paused.workspaceId, ...record })
      .onConflictDoUpdate({ target: campaignGuardrails.campaignId, set: record });
    await recordCampaignEvent(tx, paused, "campaign.paused", { pause_reason: health.reason });
    return { paused: true };
  });
}
