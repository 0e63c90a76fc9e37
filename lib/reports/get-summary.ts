import "server-only";

import { sql } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP } from "@/lib/db/client";

import { foldContactCounts } from "./fold-contact-counts";

export interface Summary {
  contacts: { total: number; subscribed: number; unsubscribed: number; bounced: number; complained: number };
  lists: { total: number; memberships: number };
  topics: { total: number };
  campaigns: { total: number; sent: number; scheduled: number; draft: number; sending: number };
  sends: { used_this_period: number; period_started_at: string | null; scope: "workspace" };
}

/**
 * The summary from the maintained counters: one row for the workspace's
 * contacts and a sum over the scope's brands for lists, topics and campaigns.
 * Contacts belong to the workspace, not to a brand, so a brand-scoped key sees
 * the workspace's contact buckets; the send allowance is always workspace-wide.
 */
export async function getSummary(ctx: Ctx, actor: Actor): Promise<Summary> {
  const workspaceId = requireActorWorkspace(actor);
  await foldContactCounts(ctx, workspaceId);
  const [row] = await ctx.db.execute<Record<string, string | number | null>>(sql`
    select w.contacts_total, w.contacts_unsubscribed, w.contacts_bounced, w.contacts_complained,
           b.*, bl.sends_used, to_char(bl.period_started_at at time zone 'UTC', ${sql.raw(ISO_TIMESTAMP)}) as period_started_at
    from report_workspace_counters w
    cross join lateral (
      select coalesce(sum(lists_total), 0) as lists_total, coalesce(sum(list_memberships), 0) as list_memberships,
             coalesce(sum(topics_total), 0) as topics_total, coalesce(sum(campaigns_total), 0) as campaigns_total,
             coalesce(sum(campaigns_sent), 0) as campaigns_sent, coalesce(sum(campaigns_scheduled), 0) as campaigns_scheduled,
             coalesce(sum(campaigns_draft), 0) as campaigns_draft, coalesce(sum(campaigns_sending), 0) as campaigns_sending
      from report_brand_counters
      where workspace_id = ${workspaceId} ${actor.brandId ? sql`and brand_id = ${actor.brandId}` : sql``}) b
    left join workspace_billing bl on bl.workspace_id = w.workspace_id
    where w.workspace_id = ${workspaceId}`);
  const n = (key: string) => Number(row?.[key] ?? 0);
  const total = n("contacts_total");
  const [unsubscribed, bounced, complained] = [
    n("contacts_unsubscribed"),
    n("contacts_bounced"),
    n("contacts_complained"),
  ];
  return {
    // The four buckets add up to the total by construction: subscribed is what the other three leave.
    contacts: { total, subscribed: total - unsubscribed - bounced - complained, unsubscribed, bounced, complained },
    lists: { total: n("lists_total"), memberships: n("list_memberships") },
    topics: { total: n("topics_total") },
    campaigns: {
      total: n("campaigns_total"),
      sent: n("campaigns_sent"),
      scheduled: n("campaigns_scheduled"),
      draft: n("campaigns_draft"),
      sending: n("campaigns_sending"),
    },
    sends: {
      used_this_period: n("sends_used"),
      period_started_at: (row?.period_started_at as string | null) ?? null,
      scope: "workspace",
    },
  };
}
