import "server-only";

import { sql } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";

import { foldContactCounts } from "./fold-contact-counts";

/**
 * The versions the report figures of an actor's scope are made of: each
 * counter row carries a version bumped in the same statement that changes
 * its figures (lib/db/sql/reports.sql), so an ETag made of them
 * moves when the figures move. One indexed read, after the queued new-contact
 * counts are folded in; read before the figures, so an ETag is never newer than
 * the answer it is sent with.
 */
export interface ReportVersions {
  workspace: number;
  workspaceActivity: number;
  /** Sums over the scope's brands, with their number (a deleted brand cannot bring an old sum back unnoticed). */
  brands: number;
  brandCampaigns: number;
  brandActivity: number;
  brandCount: number;
  sendsUsed: number;
  periodStartedAt: string;
}

export async function readReportVersions(ctx: Ctx, actor: Actor): Promise<ReportVersions> {
  const workspaceId = requireActorWorkspace(actor);
  await foldContactCounts(ctx, workspaceId);
  const [row] = await ctx.db.execute<Record<keyof ReportVersions, string | number>>(sql`
    select w.version as workspace, w.activity_version as "workspaceActivity",
           b.brands, b."brandCampaigns", b."brandActivity", b."brandCount",
           bl.sends_used as "sendsUsed", bl.period_started_at::text as "periodStartedAt"
    from report_workspace_counters w
    cross join lateral (
      select coalesce(sum(version), 0) as brands, coalesce(sum(campaigns_version), 0) as "brandCampaigns",
             coalesce(sum(activity_version), 0) as "brandActivity", count(*) as "brandCount"
      from report_brand_counters
      where workspace_id = ${workspaceId} ${actor.brandId ? sql`and brand_id = ${actor.brandId}` : sql``}) b
    left join workspace_billing bl on bl.workspace_id = w.workspace_id
    where w.workspace_id = ${workspaceId}`);
  if (!row) throw new Error(`no report counters for workspace ${workspaceId}`);
  return {
    workspace: Number(row.workspace),
    workspaceActivity: Number(row.workspaceActivity),
    brands: Number(row.brands),
    brandCampaigns: Number(row.brandCampaigns),
    brandActivity: Number(row.brandActivity),
    brandCount: Number(row.brandCount),
    sendsUsed: Number(row.sendsUsed ?? 0),
    periodStartedAt: String(row.periodStartedAt ?? ""),
  };
}
