import "server-only";

import { sql } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";

import { foldContactCounts } from "./fold-contact-counts";
import { bucketStarts, rollupCoverage, type Interval } from "./report-window";

export const ACTIVITY_COUNTERS = ["contacts_added", "unsubscribes", "campaigns_sent", "opens", "clicks"] as const;
export type ActivityCounts = Record<(typeof ACTIVITY_COUNTERS)[number], number>;
export type ActivityRow = { period_start: string } & ActivityCounts;

/**
 * The activity series over [from, to): one row per interval-aligned bucket,
 * quiet ones as zeros, counting only what happened inside the window. Read
 * from the rollups (whole days, then minutes, then exact instants at the
 * ragged ends: see rollupCoverage), never from the raw rows. A brand-scoped
 * key sees its brand's campaigns, opens, clicks and topic opt-outs, plus the
 * workspace-wide rows (contacts added, opt-outs of everything).
 */
export async function getActivity(
  ctx: Ctx,
  actor: Actor,
  window: { from: Date; to: Date; interval: Interval },
): Promise<{ rows: ActivityRow[]; totals: ActivityCounts }> {
  const workspaceId = requireActorWorkspace(actor);
  await foldContactCounts(ctx, workspaceId);
  const starts = bucketStarts(window.from, window.to, window.interval);
  const ranges = rollupCoverage(window.from, window.to).map(
    (r) => sql`(grain = ${r.grain} and bucket_at >= ${r.lo.toISOString()} and bucket_at < ${r.hi.toISOString()})`,
  );
  const found = await ctx.db.execute<Record<string, string>>(sql`
    select extract(epoch from date_trunc(${window.interval}, bucket_at, 'UTC')) * 1000 as start_ms,
           sum(contacts_added) as contacts_added, sum(unsubscribes) as unsubscribes, sum(campaigns_sent) as campaigns_sent,
           sum(opens) as opens, sum(clicks) as clicks
    from report_activity
    where workspace_id = ${workspaceId}
      ${actor.brandId ? sql`and brand_id in (${actor.brandId}, '')` : sql``}
      and (${sql.join(ranges, sql` or `)})
    group by 1`);
  const byStart = new Map(found.map((row) => [Number(row.start_ms), row]));
  const totals = Object.fromEntries(ACTIVITY_COUNTERS.map((key) => [key, 0])) as ActivityCounts;
  const rows = starts.map((start) => {
    const row = byStart.get(start.getTime());
    const counts = Object.fromEntries(ACTIVITY_COUNTERS.map((key) => [key, Number(row?.[key] ?? 0)])) as ActivityCounts;
    for (const key of ACTIVITY_COUNTERS) totals[key] += counts[key];
    return { period_start: start.toISOString(), ...counts };
  });
  return { rows, totals };
}
