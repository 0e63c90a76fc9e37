import { sql } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { sends } from "@/lib/db/schema";

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
}

/** Counts by send state; `skipped` are the failures for a missing merge tag, `failed` the other ones. */
export async function campaignCounts(ctx: Ctx, campaignId: string): Promise<CampaignCounts> {
  const [row] = await ctx.db.execute<Record<keyof CampaignCounts, number>>(sql`
    select count(*)::int as recipients,
           count(*) filter (where state in ('queued', 'sending'))::int as queued,
           count(*) filter (where state = 'accepted')::int as accepted,
           count(*) filter (where delivered_at is not null)::int as delivered,
           count(*) filter (where bounced_at is not null)::int as bounced,
           count(*) filter (where complained_at is not null)::int as complained,
           count(*) filter (where state = 'failed' and failure_reason not like 'missing_merge_tag:%')::int as failed,
           count(*) filter (where state = 'failed' and failure_reason like 'missing_merge_tag:%')::int as skipped,
           count(*) filter (where state = 'cancelled')::int as cancelled
    from ${sends} where campaign_id = ${campaignId}`);
  return Object.fromEntries(Object.entries(row!).map(([key, value]) => [key, Number(value)])) as unknown as CampaignCounts;
}
