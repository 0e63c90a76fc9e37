import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { reportCampaignCounters } from "@/lib/db/schema";
import { foldEngagement } from "@/lib/reports/fold-engagement";

export interface CampaignCounts {
  recipients: number;
  queued: number;
  accepted: number;
  delivered: number;
  bounced: number;
  complained: number;
  failed: number;
  skipped: number;
  cancelled: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
}

/**
 * One campaign's counts from its maintained counters row (kept by triggers on
 * `sends`; see lib/db/sql/reports.sql), after folding in the
 * campaign's queued deliveries, opens and clicks so the sender's own view and
 * campaign.sent are exact, not 30 s late. `skipped` are the failures for a
 * missing merge tag, `failed` the other ones.
 */
export async function campaignCounts(ctx: Ctx, campaignId: string): Promise<CampaignCounts> {
  await foldEngagement(ctx, { campaignId });
  const [row] = await ctx.db
    .select()
    .from(reportCampaignCounters)
    .where(eq(reportCampaignCounters.campaignId, campaignId));
  const zero = {
    recipients: 0,
    queued: 0,
    accepted: 0,
    delivered: 0,
    bounced: 0,
    complained: 0,
    failed: 0,
    skipped: 0,
    cancelled: 0,
    opened: 0,
    clicked: 0,
    unsubscribed: 0,
  };
  if (!row) return zero;
  const { campaignId: _campaign, workspaceId: _workspace, brandId: _brand, ...counts } = row;
  return counts;
}
