import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, sends } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { subscriberZones } from "./local-time-schedule";
import { groupZonesIntoSlices, wallClock } from "./local-time-zones";
import { sendsOfCampaign } from "./send-id-range";

export interface LocalTimeSlice {
  /** When the slice is due, and the offset from UTC its zones have that day (minutes). */
  dueAt: Date;
  offsetMinutes: number;
  /** The subscribers' zones in it, as far as they are known now. */
  zones: string[];
  /** Before the snapshot: the topic's subscribers in these zones (the list or segment may narrow them). */
  recipients: number;
  sent: number;
  failed: number;
  /** Queued or in flight: not sent yet. */
  waiting: number;
}

export interface LocalTimeSlices {
  date: string;
  time: string;
  /** True until dispatch took the audience at the first slice: the counts are the subscribers', a forecast. */
  planned: boolean;
  slices: LocalTimeSlice[];
}

/**
 * The slices of a campaign sent at a local time (docs/readings.md, "Sending at a local time"): each
 * offset's UTC time, recipients and how many were sent so far; null for a campaign sent at one instant.
 */
export async function getLocalTimeSlices(ctx: Ctx, actor: Actor, campaignId: string): Promise<LocalTimeSlices | null> {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)));
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  const { localDate: date, localTime: time } = campaign;
  if (!date || !time) return null;
  const { workspaceZone, zones } = await subscriberZones(ctx, campaign);
  const planned = groupZonesIntoSlices(zones.size > 0 ? zones.keys() : [workspaceZone], date, time);
  if (campaign.recipientCount === null) {
    const slices = planned.map((slice) => ({
      ...slice,
      recipients: slice.zones.reduce((sum, zone) => sum + (zones.get(zone) ?? 0), 0),
      sent: 0,
      failed: 0,
      waiting: 0,
    }));
    return { date, time, planned: true, slices };
  }
  const rows = await ctx.db.execute<{
    due_at: string;
    recipients: number;
    sent: number;
    failed: number;
    waiting: number;
  }>(sql`
    select due_at, count(*)::int as recipients,
           count(*) filter (where state = 'accepted')::int as sent,
           count(*) filter (where state in ('failed', 'cancelled'))::int as failed,
           count(*) filter (where state in ('queued', 'sending'))::int as waiting
    from ${sends} where ${sendsOfCampaign(campaign)} and due_at is not null
    group by due_at order by due_at`);
  const zonesAt = new Map(planned.map((slice) => [slice.dueAt.getTime(), slice.zones]));
  const wall = wallClock(date, time);
  const slices = rows.map((row) => {
    const dueAt = new Date(row.due_at);
    return {
      dueAt,
      offsetMinutes: Math.round((wall - dueAt.getTime()) / 60_000),
      zones: zonesAt.get(dueAt.getTime()) ?? [],
      recipients: Number(row.recipients),
      sent: Number(row.sent),
      failed: Number(row.failed),
      waiting: Number(row.waiting),
    };
  });
  return { date, time, planned: false, slices };
}
