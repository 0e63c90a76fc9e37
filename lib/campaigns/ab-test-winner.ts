import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { actorLabel, inActorWorkspace, type Actor } from "@/lib/actor";
import { refundSends } from "@/lib/billing/send-allowance";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaignAbTests, campaigns, sends } from "@/lib/db/schema";
import { notFound, validationFailed } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { campaignDispatchRequested } from "@/lib/events/workflow-events";

import type { AbTest } from "./ab-test";
import { AB_VARIANT_LABELS } from "./ab-test-schemas";
import { sendsOfCampaign } from "./send-id-range";

type Campaign = typeof campaigns.$inferSelect;

/** One variant's figures among the test share; `variant` null is the rest of the audience (sent the winner). */
export interface AbVariantFigures {
  variant: number | null;
  sends: number;
  sent: number;
  humanOpens: number;
  clicks: number;
}

/** Per variant of the test share, then the rest: sends, those handed to the provider, human opens and clicks. */
export async function abVariantFigures(ctx: Ctx, campaign: Campaign, test: AbTest): Promise<AbVariantFigures[]> {
  const rows = await ctx.db.execute<{
    variant: number | null;
    sends: number;
    sent: number;
    opens: number;
    clicks: number;
  }>(sql`
    select ab_variant as variant, count(*)::int as sends,
           count(*) filter (where state = 'accepted')::int as sent,
           count(human_opened_at)::int as opens, count(clicked_at)::int as clicks
    from ${sends} where ${sendsOfCampaign(campaign)} group by ab_variant`);
  const byVariant = new Map(rows.map((row) => [row.variant === null ? null : Number(row.variant), row]));
  const keys: (number | null)[] = [...test.variants.map((_, index) => index), null];
  return keys
    .filter((key) => key !== null || (byVariant.get(null)?.sends ?? 0) > 0)
    .map((variant) => {
      const row = byVariant.get(variant);
      return {
        variant,
        sends: Number(row?.sends ?? 0),
        sent: Number(row?.sent ?? 0),
        humanOpens: Number(row?.opens ?? 0),
        clicks: Number(row?.clicks ?? 0),
      };
    });
}

/**
 * The winner by the test's metric: the most distinct recipients who clicked (or, by `human_opens`,
 * who opened it themselves: machine opens are not counted, docs/readings.md "A/B tests"); a tie goes
 * to the first of the tied variants.
 */
export function winnerByMetric(test: Pick<AbTest, "metric">, figures: AbVariantFigures[]): number {
  let best = 0;
  let bestScore = -1;
  for (const row of figures) {
    if (row.variant === null) continue;
    const score = test.metric === "clicks" ? row.clicks : row.humanOpens;
    if (score > bestScore) [best, bestScore] = [row.variant, score];
  }
  return best;
}

/**
 * The winner is set (once), and the rest of the audience may go: those who opted out of the topic or
 * of everything while they waited are cancelled now, their allowance refunded (suppressions are
 * checked again as each batch is sent, build-batch.ts); a subject winner becomes the campaign's
 * subject (its report row's, docs/readings.md "A/B tests"); a sending campaign's dispatch carries on.
 * Sends of the test share are never touched: they carry their variant, and only queued sends without
 * one are the rest.
 */
async function settleWinner(ctx: Ctx, campaign: Campaign, test: AbTest, winner: number, by: string) {
  const now = ctx.clock.now();
  const [set] = await ctx.db
    .update(campaignAbTests)
    .set({ winner, winnerPickedBy: by, winnerPickedAt: now, updatedAt: now })
    .where(and(eq(campaignAbTests.campaignId, campaign.id), sql`${campaignAbTests.winner} is null`))
    .returning();
  if (!set) return false;
  const optedOut = await ctx.db.execute(sql`
    update ${sends} set state = 'cancelled', failure_reason = 'opted_out', updated_at = ${now.toISOString()}
    where ${sendsOfCampaign(campaign)} and ${sends.state} = 'queued' and ${sends.abVariant} is null
      and not exists (
        select 1 from contacts c join subscriptions sub on sub.contact_id = c.id
        where c.id = ${sends.contactId} and c.opted_out_at is null and sub.topic_id = ${campaign.topicId} and sub.state = 'subscribed')`);
  await refundSends(ctx, campaign.workspaceId, optedOut.count);
  if (test.dimension === "subject")
    await ctx.db
      .update(campaigns)
      .set({ subject: test.variants[winner]!, updatedAt: now })
      .where(eq(campaigns.id, campaign.id));
  if (campaign.status === "sending")
    await emitEvents(ctx, [
      {
        name: campaignDispatchRequested.name,
        id: `dispatch-${campaign.id}-ab-winner`,
        data: { campaignId: campaign.id, at: null },
      },
    ]);
  return true;
}

async function lockedTest(ctx: Ctx, actor: Actor | null, campaignId: string) {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), actor ? inActorWorkspace(actor, campaigns.workspaceId) : undefined))
    .for("update");
  if (!campaign) return null;
  const [test] = await ctx.db.select().from(campaignAbTests).where(eq(campaignAbTests.campaignId, campaignId));
  return { campaign, test: test ?? null };
}

/** Whether a person may pick the winner: the test's share taken, and the campaign going on or sent (not cancelled). */
export function canPickAbWinner(status: string, test: { assignedAt: Date | null }): boolean {
  return test.assignedAt !== null && ["sending", "paused", "sent"].includes(status);
}

/**
 * A person picks the winner, any variant, before the wait ends: the rest are sent it at once. Only
 * while the test runs (its share taken, no winner yet, the campaign not cancelled).
 */
export function pickAbWinner(ctx: Ctx, actor: Actor, campaignId: string, variant: number) {
  return withTransaction(ctx, async (tx) => {
    const found = await lockedTest(tx, actor, campaignId);
    if (!found) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
    const { campaign, test } = found;
    if (!test) throw validationFailed("variant", "variant: this campaign has no A/B test.");
    if (!Number.isInteger(variant) || variant < 0 || variant >= test.variants.length)
      throw validationFailed(
        "variant",
        `variant: choose ${AB_VARIANT_LABELS.slice(0, test.variants.length).join(", ")}.`,
      );
    if (test.winner !== null)
      throw validationFailed("variant", `variant: the winner is already ${AB_VARIANT_LABELS[test.winner]}.`);
    if (!canPickAbWinner(campaign.status, test))
      throw validationFailed("variant", "variant: a winner is picked while the test runs, once its share is sent to.");
    await settleWinner(tx, campaign, test, variant, actorLabel(actor));
    return { winner: variant, label: AB_VARIANT_LABELS[variant]! };
  });
}

/** System: the wait is over; the winner by the metric, unless a person picked one sooner (then nothing). */
export function decideAbWinner(ctx: Ctx, campaignId: string) {
  return withTransaction(ctx, async (tx) => {
    const found = await lockedTest(tx, null, campaignId);
    if (!found?.test || found.test.winner !== null || found.campaign.status === "cancelled") return { winner: null };
    const figures = await abVariantFigures(tx, found.campaign, found.test);
    const winner = winnerByMetric(found.test, figures);
    await settleWinner(tx, found.campaign, found.test, winner, "metric");
    return { winner };
  });
}
