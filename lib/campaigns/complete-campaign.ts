import "server-only";

import { and, eq } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";

import { campaignCounts } from "./campaign-counts";
import { recordCampaignEvent } from "./campaign-events";

/** Every recipient has been attempted: the campaign is sent; campaign.sent carries the counts as they stand. */
export async function completeCampaign(ctx: Ctx, campaignId: string): Promise<{ completed: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const [campaign] = await tx.db
      .update(campaigns)
      .set({ status: "sent", completedAt: now, updatedAt: now })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, "sending")))
      .returning();
    if (!campaign) return { completed: false };
    const counts = await campaignCounts(tx, campaignId);
    await recordCampaignEvent(tx, campaign, "campaign.sent", {
      delivered: counts.delivered,
      bounced: counts.bounced,
      failed: counts.failed,
      skipped: counts.skipped,
    });
    return { completed: true };
  });
}
