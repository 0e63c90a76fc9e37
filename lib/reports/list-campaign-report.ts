import "server-only";

import { sql } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP } from "@/lib/db/client";

export interface CampaignReportRow {
  id: string;
  name: string;
  subject: string;
  sentAt: string;
  recipients: number;
  accepted: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  /** Never left the service: skipped for a missing merge tag, suppressed, render errors. */
  failed: number;
}

const COUNTS = [
  "recipients",
  "accepted",
  "delivered",
  "opened",
  "clicked",
  "bounced",
  "complained",
  "unsubscribed",
  "failed",
] as const;

/**
 * Campaigns whose dispatch started (drafts and scheduled ones have no send
 * time and are absent), newest send first, in the actor's scope, with the
 * maintained counters. Keyset on (sent_at, id): the anchor is the id of the
 * previous page's last row. One more row than asked tells whether more follow.
 */
export async function listCampaignReport(
  ctx: Ctx,
  actor: Actor,
  window: { from?: Date; to?: Date; /** One campaign's row only (the dashboard's report page). */ campaignId?: string },
  page: { limit: number; afterId: string | null },
): Promise<CampaignReportRow[]> {
  const workspaceId = requireActorWorkspace(actor);
  const rows = await ctx.db.execute<Record<string, string>>(sql`
    select c.id, c.name, c.subject, to_char(c.sent_at at time zone 'UTC', ${sql.raw(ISO_TIMESTAMP)}) as "sentAt",
           k.recipients, k.accepted, k.delivered, k.opened, k.clicked, k.bounced, k.complained, k.unsubscribed, k.failed + k.skipped as failed
    from campaigns c
    join report_campaign_counters k on k.campaign_id = c.id
    where c.workspace_id = ${workspaceId} and c.sent_at is not null
      ${actor.brandId ? sql`and c.brand_id = ${actor.brandId}` : sql``}
      ${window.campaignId ? sql`and c.id = ${window.campaignId}` : sql``}
      ${window.from ? sql`and c.sent_at >= ${window.from.toISOString()}` : sql``}
      ${window.to ? sql`and c.sent_at < ${window.to.toISOString()}` : sql``}
      ${page.afterId ? sql`and (c.sent_at, c.id) < (select a.sent_at, a.id from campaigns a where a.id = ${page.afterId} and a.workspace_id = ${workspaceId})` : sql``}
    order by c.sent_at desc, c.id desc
    limit ${page.limit + 1}`);
  return rows.map((row) => ({
    id: row.id!,
    name: row.name!,
    subject: row.subject!,
    sentAt: row.sentAt!,
    ...(Object.fromEntries(COUNTS.map((key) => [key, Number(row[key])])) as Record<(typeof COUNTS)[number], number>),
  }));
}
