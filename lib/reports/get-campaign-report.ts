import "server-only";

import { and, eq, sql } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { sendsOfCampaign } from "@/lib/campaigns/send-id-range";
import type { Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { campaignRates } from "./campaign-rates";
import { foldEngagement } from "./fold-engagement";
import { listCampaignReport, type CampaignReportRow } from "./list-campaign-report";

export interface CampaignReport {
  /** The row of /v1/reports/campaigns, from the same counters, with its rates. */
  row: CampaignReportRow & ReturnType<typeof campaignRates>;
  /** First opens and first clicks per hour since sending started. */
  timeline: { hour: string; opened: number; clicked: number }[];
  topLinks: { url: string; clicks: number; people: number }[];
  devices: { name: string; clicks: number }[];
  clients: { name: string; clicks: number }[];
  countries: { name: string; clicks: number }[];
  bounces: { type: string; count: number }[];
}

const TOP = 10;

/**
 * A sent campaign's report for its sender: the API's row and rates, opens
 * and clicks over time, and what the clicks say (links, devices, clients,
 * countries). Null while the campaign has not started sending.
 */
export async function getCampaignReportOrThrow(
  ctx: Ctx,
  actor: WorkspaceActor,
  campaignId: string,
): Promise<CampaignReport | null> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.workspaceId, actor.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  // Opens and clicks reach the counters within 30 s; the sender's own page folds them in now, as campaignCounts does.
  await foldEngagement(ctx, { campaignId });
  const [row] = await listCampaignReport(ctx, actor, { campaignId }, { limit: 1, afterId: null });
  if (!row) return null;
  const ofCampaign = sendsOfCampaign(campaign);
  const [timeline, bounces, clicks] = await Promise.all([
    ctx.db.execute<{ hour: string; opened: number; clicked: number }>(sql`
      with moments as (
        select date_trunc('hour', opened_at) as hour, 1 as opened, 0 as clicked from sends where ${ofCampaign} and opened_at is not null
        union all
        select date_trunc('hour', clicked_at), 0, 1 from sends where ${ofCampaign} and clicked_at is not null)
      select to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:00"Z"') as hour, sum(opened)::int as opened, sum(clicked)::int as clicked
      from moments group by 1 order by 1`),
    ctx.db.execute<{ type: string; count: number }>(sql`
      select coalesce(bounce_type, 'undetermined') as type, count(*)::int as count from sends
      where ${ofCampaign} and bounced_at is not null group by 1 order by 2 desc`),
    // Every click, not only each person's first: the links and devices people used.
    ctx.db.execute<{
      url: string;
      device: string | null;
      client: string | null;
      country: string | null;
      send_id: string;
    }>(sql`
      select data->>'url' as url, data->>'device_type' as device, data->>'client' as client, data->>'country' as country, data->>'send_id' as send_id
      from events
      where workspace_id = ${actor.workspaceId} and type = 'email.clicked' and data->>'campaign_id' = ${campaignId}`),
  ]);
  return {
    row: { ...row, ...campaignRates(row) },
    timeline: [...timeline],
    topLinks: topLinks(clicks),
    devices: tally(clicks.map((click) => click.device)),
    clients: tally(clicks.map((click) => click.client)),
    countries: tally(clicks.map((click) => click.country)),
    bounces: [...bounces],
  };
}

function topLinks(clicks: { url: string; send_id: string }[]): CampaignReport["topLinks"] {
  const byUrl = new Map<string, { clicks: number; people: Set<string> }>();
  for (const click of clicks) {
    const entry = byUrl.get(click.url) ?? { clicks: 0, people: new Set<string>() };
    entry.clicks += 1;
    entry.people.add(click.send_id);
    byUrl.set(click.url, entry);
  }
  return [...byUrl]
    .map(([url, entry]) => ({ url, clicks: entry.clicks, people: entry.people.size }))
    .sort((a, b) => b.clicks - a.clicks || a.url.localeCompare(b.url))
    .slice(0, TOP);
}

function tally(values: (string | null)[]): { name: string; clicks: number }[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value ?? "Unknown", (counts.get(value ?? "Unknown") ?? 0) + 1);
  return [...counts]
    .map(([name, clicks]) => ({ name, clicks }))
    .sort((a, b) => b.clicks - a.clicks || a.name.localeCompare(b.name))
    .slice(0, TOP);
}
