import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

const BATCH = 50_000;

/**
 * Folds queued first deliveries, opens and clicks into the campaign counters
 * and the activity rollups (report_fold_engagement in lib/db/sql/reports.sql),
 * batch after batch until the queue is empty, or only one campaign's rows.
 * Safe to run concurrently: a row another fold holds is skipped. Returns how
 * many were folded.
 */
export async function foldEngagement(ctx: Ctx, opts: { campaignId?: string; batch?: number } = {}): Promise<number> {
  const batch = opts.batch ?? BATCH;
  let total = 0;
  for (;;) {
    const [row] = await ctx.db.execute<{ n: number }>(
      sql`select report_fold_engagement(${batch}::int, ${opts.campaignId ?? null}::text) as n`,
    );
    const folded = Number(row!.n);
    total += folded;
    if (folded < batch) return total;
  }
}
