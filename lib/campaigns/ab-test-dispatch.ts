import "server-only";

import { and, eq, isNull, sql, type SQL } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { campaignAbTests, campaigns, sends } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { campaignAbTestWaiting } from "@/lib/events/workflow-events";

import { sendsOfCampaign } from "./send-id-range";

type Campaign = typeof campaigns.$inferSelect;

/**
 * The sends a batch may take now, as an `and` condition on `sends`: while the campaign's A/B test has
 * no winner, only the test share's (those given a variant); the rest wait. One look-up of the
 * campaign's test per statement (an uncorrelated sub-query), nothing for a campaign without one.
 */
export function notHeldForAbWinner(campaign: Pick<Campaign, "id">): SQL {
  return sql`and (${sends.abVariant} is not null or not exists (
    select 1 from ${campaignAbTests} t where t.campaign_id = ${campaign.id} and t.winner is null))`;
}

/** How many of `queued` recipients are in the test: the percent, rounded, at least one per variant. */
export function testShareSize(queued: number, testPercent: number | null, variants: number): number {
  if (testPercent === null) return queued;
  return Math.min(queued, Math.max(variants, Math.round((queued * testPercent) / 100)));
}

/**
 * System: once the audience is taken, gives the test share its variants: a random choice of the
 * queued sends, dealt the variants in a random order so each gets the same number (give or take one).
 * Once per campaign: a retried step or a later dispatch run finds the test assigned.
 */
export async function assignAbVariants(ctx: Ctx, campaignId: string): Promise<{ testSends: number } | null> {
  return withTransaction(ctx, async (tx) => {
    const [test] = await tx.db
      .select()
      .from(campaignAbTests)
      .where(eq(campaignAbTests.campaignId, campaignId))
      .for("update");
    if (!test) return null;
    if (test.assignedAt) return { testSends: test.testSends ?? 0 };
    const [campaign] = await tx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    const [counted] = await tx.db.execute<{ queued: number }>(sql`
      select count(*)::int as queued from ${sends} where ${sendsOfCampaign(campaign!)} and state = 'queued'`);
    const size = testShareSize(Number(counted!.queued), test.testPercent, test.variants.length);
    const assigned = await tx.db.execute(sql`
      with picked as (
        select id, (row_number() over (order by random()) - 1) % ${test.variants.length} as variant
        from ${sends} where ${sendsOfCampaign(campaign!)} and state = 'queued'
        order by random() limit ${size})
      update ${sends} s set ab_variant = picked.variant from picked where s.id = picked.id`);
    const now = tx.clock.now();
    await tx.db
      .update(campaignAbTests)
      .set({ assignedAt: now, testSends: assigned.count, updatedAt: now })
      .where(eq(campaignAbTests.campaignId, campaignId));
    return { testSends: assigned.count };
  });
}

/**
 * System: dispatch has sent every send it may. Without a winner yet, the wait starts now (once): the
 * workflow that picks the winner by the metric is started for `decideAt`. Dispatch stops (`waiting`)
 * while sends wait for the winner; a test of everyone has none, and its campaign completes.
 */
export async function holdForAbWinner(
  ctx: Ctx,
  campaignId: string,
): Promise<{ waiting: boolean; decideAt: string | null }> {
  return withTransaction(ctx, async (tx) => {
    const [test] = await tx.db
      .select()
      .from(campaignAbTests)
      .where(eq(campaignAbTests.campaignId, campaignId))
      .for("update");
    if (!test || test.winner !== null) return { waiting: false, decideAt: test?.decideAt?.toISOString() ?? null };
    let decideAt = test.decideAt;
    if (!decideAt) {
      const now = tx.clock.now();
      decideAt = new Date(now.getTime() + test.waitMinutes * 60_000);
      await tx.db
        .update(campaignAbTests)
        .set({ decideAt, updatedAt: now })
        .where(and(eq(campaignAbTests.campaignId, campaignId), isNull(campaignAbTests.decideAt)));
      await emitEvents(tx, [
        {
          name: campaignAbTestWaiting.name,
          id: `ab-test-${campaignId}`,
          data: { campaignId, at: decideAt.toISOString() },
        },
      ]);
    }
    const [campaign] = await tx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    const [held] = await tx.db.execute<{ held: boolean }>(sql`
      select exists (select 1 from ${sends} where ${sendsOfCampaign(campaign!)} and state = 'queued' and ab_variant is null) as held`);
    return { waiting: Boolean(held!.held), decideAt: decideAt.toISOString() };
  });
}
