import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { sends } from "@/lib/db/schema";

/**
 * How many of a campaign's recipients were not sent to, per failure reason, most first. Read through
 * the index of failed sends (sends_campaign_failed_idx), so its cost follows the failures, not the audience.
 */
export async function countNotSent(ctx: Ctx, campaignId: string): Promise<{ reason: string; count: number }[]> {
  const rows = await ctx.db.execute<{ reason: string | null; count: number }>(sql`
    select ${sends.failureReason} as reason, count(*)::int as count from ${sends}
    where ${sends.campaignId} = ${campaignId} and ${sends.state} = 'failed'
    group by 1 order by 2 desc, 1`);
  return [...rows].map((row) => ({ reason: row.reason ?? "", count: Number(row.count) }));
}
