import "server-only";

import { and, asc, eq, isNull, sql, type SQL } from "drizzle-orm";

import { billingAllowsSending } from "@/lib/billing/billing-allows-sending";
import { OVER_ALLOWANCE, reserveSends } from "@/lib/billing/send-allowance";
import { withTransaction, type Ctx } from "@/lib/context";
import { audienceSnapshotParts, brands, campaigns, sends, workspaceBilling } from "@/lib/db/schema";
import { providerOfEmailSql } from "@/lib/deliverability/mailbox-provider";
import { bulkIdPrefix } from "@/lib/ids";
import { campaignSegmentFilter } from "@/lib/segments/campaign-segment";
import { SEGMENT_WORK_MEM } from "@/lib/segments/compile-segment";
import { notSuppressedSql } from "@/lib/suppressions/suppressed";

import type { BatchFailure } from "./build-batch";
import { recordCampaignEvent } from "./campaign-events";
import { localTimeDueSql } from "./local-time-schedule";
import { announceFailures, recordFailures } from "./record-batch";
import { originalRecipients } from "./resend-audience";
import { sendsOfCampaign } from "./send-id-range";
import { sendingRules } from "./sending-rules";

/**
 * An audience of at least this many subscribers is written in parts at once. Below it one statement
 * takes a fraction of a second and the split would not pay for its own search.
 */
export const SPLIT_AUDIENCE_FROM = 20_000;
/**
 * Two parts, one per core of the machine this is sized for. Measured with a million recipients: two
 * parts take 4.0–4.5 s, three 5.0–5.5 s and four 5.4–5.9 s, as the writers contend for the same
 * pages and counter rows.
 */
const SNAPSHOT_PARTS = 2;

type Part = typeof audienceSnapshotParts.$inferSelect;

/**
 * When dispatch starts: one `sends` row per recipient, each with its own send_id. Recipients are the
 * confirmed subscribers of the campaign's topic, narrowed to the list and by the segment when there
 * are (and, for a resend to non-openers, to the original's recipients who have not opened it), minus
 * addresses and domains that are suppressed and people who opted out of everything; each contact once.
 * Those a sending rule leaves out (the sandbox, a merge tag without a value) fail at once with their
 * reason. The send allowance is reserved for the others, the campaign's recipient count is set and
 * campaign.sending is recorded; those beyond what the period's allowance has left fail with `over_allowance`.
 *
 * Three steps, each safe to repeat after a crash:
 *  1. plan: the campaign's send id prefix and its parts (contact-id ranges), committed once;
 *  2. the parts, side by side, each in its own transaction that also marks it taken, so a part is
 *     written once however often the snapshot is retried;
 *  3. finish: the count, the reservation and the event, once, with the campaign locked.
 * A million recipients take two single-statement inserts of half a million rows on two connections:
 * one statement would keep one core busy for twice as long.
 */
export async function snapshotAudience(ctx: Ctx, campaignId: string): Promise<{ status: string; recipients: number }> {
  const plan = await planSnapshot(ctx, campaignId);
  if ("status" in plan) return plan;
  await Promise.all(plan.parts.map((part) => takeSnapshotPart(ctx, plan.campaign, part)));
  return finishSnapshot(ctx, campaignId);
}

type Campaign = typeof campaigns.$inferSelect;

/** Step 1: chooses the send id prefix and the parts, unless an earlier attempt already did. */
export async function planSnapshot(
  ctx: Ctx,
  campaignId: string,
): Promise<{ status: string; recipients: number } | { campaign: Campaign; parts: Part[] }> {
  return withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)).for("update");
    if (!campaign) return { status: "missing", recipients: 0 };
    if (campaign.recipientCount !== null || campaign.status !== "sending")
      return { status: campaign.status, recipients: campaign.recipientCount ?? 0 };
    // While billing pauses sending the audience is not taken (nor the allowance spent): settling starts dispatch again.
    const [billing] = await tx.db
      .select()
      .from(workspaceBilling)
      .where(eq(workspaceBilling.workspaceId, campaign.workspaceId));
    if (billing && !billingAllowsSending(billing, tx.clock.now())) return { status: "billing_paused", recipients: 0 };
    if (campaign.sendIdPrefix) {
      const parts = await tx.db
        .select()
        .from(audienceSnapshotParts)
        .where(eq(audienceSnapshotParts.campaignId, campaignId))
        .orderBy(asc(audienceSnapshotParts.part));
      return { campaign, parts };
    }
    const splits = await splitPoints(tx, campaign.topicId);
    const bounds = [null, ...splits, null];
    const parts: Part[] = bounds
      .slice(1)
      .map((toContactId, part) => ({ campaignId, part, fromContactId: bounds[part]!, toContactId, recipients: null }));
    await tx.db.insert(audienceSnapshotParts).values(parts);
    const sendIdPrefix = bulkIdPrefix("snd", tx.clock.now());
    await tx.db.update(campaigns).set({ sendIdPrefix }).where(eq(campaigns.id, campaignId));
    return { campaign: { ...campaign, sendIdPrefix }, parts };
  });
}

/**
 * The contact ids that cut the topic's subscribers into SNAPSHOT_PARTS ranges of equal size, or none
 * when there are too few to be worth splitting. Index-only walks of (topic, state, contact).
 */
export async function splitPoints(ctx: Ctx, topicId: string): Promise<string[]> {
  const [count] = await ctx.db.execute<{ n: number }>(
    sql`select count(*)::int as n from subscriptions where topic_id = ${topicId} and state = 'subscribed'`,
  );
  const n = Number(count!.n);
  if (n < SPLIT_AUDIENCE_FROM) return [];
  const points: string[] = [];
  for (let k = 1; k < SNAPSHOT_PARTS; k++) {
    const [row] = await ctx.db.execute<{ contact_id: string }>(sql`
      select contact_id from subscriptions where topic_id = ${topicId} and state = 'subscribed'
      order by contact_id offset ${Math.floor((n * k) / SNAPSHOT_PARTS)} limit 1`);
    points.push(row!.contact_id);
  }
  return points;
}

/**
 * Step 2, one part: its recipients' sends, with ids of the campaign's prefix, the part's hex digit
 * and a row number. Skipped when the part was already taken, or when the campaign was cancelled
 * meanwhile; the campaign is share-locked so a cancel waits for the part rather than missing its rows.
 * Whoever a sending rule leaves out (sending-rules.ts) is written failed with its reason and
 * announced, so that the allowance, reserved when the snapshot finishes, never covers them.
 */
export async function takeSnapshotPart(ctx: Ctx, campaign: Campaign, part: Part): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [current] = await tx.db
      .select({ status: campaigns.status })
      .from(campaigns)
      .where(eq(campaigns.id, campaign.id))
      .for("share");
    if (current?.status !== "sending" && current?.status !== "paused") return;
    const [open] = await tx.db
      .select()
      .from(audienceSnapshotParts)
      .where(
        and(
          eq(audienceSnapshotParts.campaignId, campaign.id),
          eq(audienceSnapshotParts.part, part.part),
          isNull(audienceSnapshotParts.recipients),
        ),
      )
      .for("update");
    if (!open) return;
    const [brand] = await tx.db.select().from(brands).where(eq(brands.id, campaign.brandId));
    const rules = await sendingRules(tx, campaign, brand!);
    const original = await originalRecipients(tx, campaign);
    const kept = await campaignSegmentFilter(tx, campaign, "c", "s", "where");
    if (kept) await tx.db.execute(SEGMENT_WORK_MEM);
    const now = tx.clock.now().toISOString();
    // Sent at a local time: each send due at its recipient's slice, and not claimed before (local-time-schedule.ts).
    const due = await localTimeDueSql(tx, campaign);
    // Without a rule (a cleared brand, no merge tag a contact may lack) every row is queued and nothing is read back.
    const reason = rules.any ? sql`(case ${rules.whens} else null end)::text` : sql`null::text`;
    const insert = sql`
        insert into ${sends} (id, workspace_id, campaign_id, contact_id, email, provider, state, failure_reason, due_at, not_before, created_at, updated_at)
        select ${`${campaign.sendIdPrefix}${part.part.toString(16)}`} || lpad(to_hex(row_number() over ()), 7, '0'),
               c.workspace_id, ${campaign.id}, c.id, c.email, ${providerOfEmailSql(sql`c.email`, sql`md`)},
               case when r.reason is null then 'queued' else 'failed' end, r.reason, d.due, d.due, ${now}, ${now}
        from subscriptions s
        join contacts c on c.id = s.contact_id
        -- Each send's mailbox provider, so that dispatch paces providers apart (classify-campaign-domains.ts filled the cache).
        left join mailbox_domains md on md.domain = split_part(c.email, '@', 2)
        ${rules.joins}
        cross join lateral (select ${reason} as reason) r
        cross join lateral (select ${due} as due) d
        where s.topic_id = ${campaign.topicId} and s.state = 'subscribed' and c.opted_out_at is null
          -- The range on each table, not only on contacts: the planner does not carry it across the joins,
          -- and each part would otherwise read the whole topic and list (measured: 1.6 s instead of 0.7 s for half a million).
          ${inPart(sql`s.contact_id`, part)} ${inPart(sql`c.id`, part)}
          ${campaign.listId ? sql`and exists (select 1 from list_members m where m.list_id = ${campaign.listId} and m.contact_id = c.id ${inPart(sql`m.contact_id`, part)})` : sql``}
          ${original ? sql`and c.id in (select o.contact_id from (${original}) o where o.human_opened_at is null ${inPart(sql`o.contact_id`, part)})` : sql``}
          ${kept ? sql`and ${kept}` : sql``}
          and ${notSuppressedSql(campaign.workspaceId, sql`c.email`)}`;
    let written: number;
    if (rules.any) {
      const [row] = await tx.db.execute<{ written: number; failures: BatchFailure[] | string }>(sql`
        with written as (${insert} returning id, contact_id, email, failure_reason)
        select count(*)::int as written,
               coalesce(json_agg(json_build_object('id', id, 'contactId', contact_id, 'email', email, 'reason', failure_reason)) filter (where failure_reason is not null), '[]'::json) as failures
        from written`);
      written = Number(row!.written);
      await announceFailures(
        tx,
        campaign,
        typeof row!.failures === "string" ? (JSON.parse(row!.failures) as BatchFailure[]) : row!.failures,
      );
    } else written = (await tx.db.execute(insert)).count;
    await tx.db
      .update(audienceSnapshotParts)
      .set({ recipients: written })
      .where(and(eq(audienceSnapshotParts.campaignId, campaign.id), eq(audienceSnapshotParts.part, part.part)));
  });
}

/** `and` conditions keeping a contact-id column within the part's range (the exclusion preview cuts the same ranges). */
export function inPart(column: SQL, part: Pick<Part, "fromContactId" | "toContactId">): SQL {
  return sql`${part.fromContactId ? sql`and ${column} >= ${part.fromContactId}` : sql``} ${part.toContactId ? sql`and ${column} < ${part.toContactId}` : sql``}`;
}

/**
 * Step 3: once every part is taken, the recipient count, the reservation and campaign.sending. The
 * allowance is reserved only for the sends still queued, those no sending rule left out.
 */
export async function finishSnapshot(ctx: Ctx, campaignId: string): Promise<{ status: string; recipients: number }> {
  return withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db.select().from(campaigns).where(eq(campaigns.id, campaignId)).for("update");
    if (!campaign) return { status: "missing", recipients: 0 };
    if (campaign.recipientCount !== null || campaign.status === "cancelled")
      return { status: campaign.status, recipients: campaign.recipientCount ?? 0 };
    const parts = await tx.db
      .select()
      .from(audienceSnapshotParts)
      .where(eq(audienceSnapshotParts.campaignId, campaignId));
    if (parts.length === 0 || parts.some((part) => part.recipients === null))
      throw new Error(`the audience snapshot of ${campaignId} is not complete`);
    const recipients = parts.reduce((sum, part) => sum + part.recipients!, 0);
    // Only a rule fails a send before dispatch: counted through the index of failed sends, not over every send.
    const [left] = await tx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sends} where ${sends.campaignId} = ${campaignId} and ${sends.state} = 'failed'`,
    );
    const queued = recipients - Number(left!.n);
    const now = tx.clock.now();
    await tx.db
      .update(campaigns)
      .set({ recipientCount: recipients, sentAt: now, updatedAt: now })
      .where(eq(campaigns.id, campaign.id));
    const remaining = await reserveSends(tx, campaign.workspaceId, queued);
    await recordCampaignEvent(tx, { ...campaign, recipientCount: recipients }, "campaign.sending");
    // Past the plan's allowance the queued sends with the highest contact ids are not sent: failed, refunded
    // and announced. By contact id, so the exclusion preview can name the same people beforehand.
    if (remaining < queued) {
      const over = await tx.db.execute<{ id: string; contact_id: string; email: string }>(sql`
        select id, contact_id, email from ${sends}
        where ${sendsOfCampaign({ ...campaign, recipientCount: recipients })} and ${sends.state} = 'queued'
        order by contact_id desc limit ${queued - remaining}`);
      await recordFailures(
        tx,
        campaign,
        [...over].map((row) => ({ id: row.id, contactId: row.contact_id, email: row.email, reason: OVER_ALLOWANCE })),
      );
    }
    return { status: campaign.status, recipients };
  });
}
