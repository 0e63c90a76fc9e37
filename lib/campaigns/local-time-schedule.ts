import "server-only";

import { eq, sql, type SQL } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import { canonicalTimeZone } from "@/lib/contacts/time-zone";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";

import { assertReachesSomeone } from "./assert-reaches-someone";
import { move, requestDispatch } from "./campaign-actions";
import { groupZonesIntoSlices, offsetLabel, type PlannedSlice } from "./local-time-zones";

type Campaign = typeof campaigns.$inferSelect;

/**
 * Internal: the time zones the campaign's topic's subscribers are in, each contact without one counted
 * in the workspace's (docs/readings.md, "Sending at a local time"), with how many subscribers each has.
 * A superset of the audience (a list or segment narrows it further): the slices it may need. `stored`
 * maps each zone name as stored on contacts to the zone it is read as.
 */
export async function subscriberZones(
  ctx: Ctx,
  campaign: Pick<Campaign, "workspaceId" | "topicId">,
): Promise<{ workspaceZone: string; zones: Map<string, number>; stored: Map<string, string> }> {
  const rows = await ctx.db.execute<{ zone: string | null; workspace_zone: string; n: number }>(sql`
    select c.time_zone as zone, w.time_zone as workspace_zone, count(c.id)::int as n
    from workspaces w
    left join subscriptions s on s.topic_id = ${campaign.topicId} and s.state = 'subscribed'
    left join contacts c on c.id = s.contact_id and c.workspace_id = w.id and c.opted_out_at is null
    where w.id = ${campaign.workspaceId}
    group by 1, 2`);
  const workspaceZone = canonicalTimeZone(rows[0]?.workspace_zone ?? "UTC") ?? "UTC";
  const zones = new Map<string, number>();
  const stored = new Map<string, string>();
  for (const row of rows) {
    if (Number(row.n) === 0) continue;
    // A zone the runtime no longer knows (it was checked when stored) is read as the workspace's.
    const zone = (row.zone && canonicalTimeZone(row.zone)) || workspaceZone;
    if (row.zone) stored.set(row.zone, zone);
    zones.set(zone, (zones.get(zone) ?? 0) + Number(row.n));
  }
  return { workspaceZone, zones, stored };
}

/** A slice's first zone, and its offset unless the zone's name says it. */
const where = (slice: PlannedSlice) => {
  const offset = offsetLabel(slice.offsetMinutes);
  return slice.zones[0] === offset ? offset : `${slice.zones[0]} (${offset})`;
};

/**
 * Schedules the campaign at `time` on `date` in each recipient's own time zone (docs/readings.md,
 * "Sending at a local time"). Dispatch starts, and takes the audience, at the first slice the
 * subscribers' zones need. Refused when that slice's time has already come: every recipient must get
 * it at the hour asked, none late. Refused with `no_recipients` when nobody would get it now.
 */
export function scheduleCampaignAtLocalTime(
  ctx: Ctx,
  actor: Actor,
  campaignId: string,
  local: { date: string; time: string },
) {
  return withTransaction(ctx, async (tx) => {
    const { before, campaign } = await move(tx, actor, campaignId, "scheduled", {
      localDate: local.date,
      localTime: local.time,
    });
    const { workspaceZone, zones } = await subscriberZones(tx, before);
    const slices = groupZonesIntoSlices(zones.size > 0 ? zones.keys() : [workspaceZone], local.date, local.time);
    const first = slices[0]!;
    if (first.dueAt <= tx.clock.now())
      throw validationFailed(
        "date",
        `date: ${local.time} on ${local.date} has already come in ${where(first)}, where some recipients are. Pick a later date.`,
      );
    await tx.db.update(campaigns).set({ scheduledAt: first.dueAt }).where(eq(campaigns.id, campaign.id));
    await assertReachesSomeone(tx, campaign);
    await requestDispatch(tx, campaign, first.dueAt, `local-${first.dueAt.getTime()}-${tx.clock.now().getTime()}`);
    return { campaign: { ...campaign, scheduledAt: first.dueAt }, slices };
  });
}

/**
 * Internal: for the audience snapshot, each send's due time from its contact's zone (`c.time_zone`;
 * the workspace's when it has none, or one added since these zones were read), or null for a campaign
 * sent at one instant. One `case` over the zones the subscribers are in, computed here rather than by
 * the database's own zone data, so that the snapshot agrees with the slices the page showed.
 */
export async function localTimeDueSql(ctx: Ctx, campaign: Campaign): Promise<SQL> {
  if (!campaign.localDate || !campaign.localTime) return sql`null::timestamptz`;
  const { workspaceZone, zones, stored } = await subscriberZones(ctx, campaign);
  const slices: PlannedSlice[] = groupZonesIntoSlices(
    [workspaceZone, ...zones.keys()],
    campaign.localDate,
    campaign.localTime,
  );
  const dueOf = new Map(slices.flatMap((slice) => slice.zones.map((zone) => [zone, slice.dueAt.toISOString()])));
  const whens = [...stored]
    .filter(([, zone]) => zone !== workspaceZone)
    .map(([name, zone]) => sql`when ${name} then ${dueOf.get(zone)!}::timestamptz`);
  const fallback = sql`${dueOf.get(workspaceZone)!}::timestamptz`;
  if (whens.length === 0) return fallback;
  return sql`(case c.time_zone ${sql.join(whens, sql` `)} else ${fallback} end)`;
}
