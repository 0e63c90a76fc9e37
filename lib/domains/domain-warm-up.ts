import "server-only";

import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";

import { sendsOfCampaign } from "@/lib/campaigns/send-id-range";
import type { Ctx } from "@/lib/context";
import { brands, campaigns, domainWarmUpDays, sendingDomains, sends } from "@/lib/db/schema";
import { guardrailThresholdsOf } from "@/lib/deliverability/guardrail-thresholds";

import { senderIsAtDomain } from "./sender-domain";
import { heldDeliverabilityRates, type DayDeliverability } from "./warm-up-rates";
import { nextWarmUpStage, warmUpCapOf, warmUpDayOf } from "./warm-up-schedule";

export interface WarmUpDomain {
  id: string;
  workspaceId: string;
  hostname: string;
  warmUp: boolean;
}

/** A domain's warm-up on one day: its stage, that stage's cap (null: none) and the sends claimed so far. */
export interface WarmUpDay {
  day: string;
  stage: number;
  cap: number | null;
  used: number;
}

/**
 * Internal: the sending domain whose reputation a campaign's mail builds: the workspace's domain at its
 * brand's sender address (the From domain receivers judge), whichever domain the brand points at.
 */
export async function campaignSendingDomain(
  ctx: Ctx,
  campaign: { workspaceId: string; brandId: string },
): Promise<WarmUpDomain | null> {
  const [row] = await ctx.db
    .select({ id: sendingDomains.id, hostname: sendingDomains.hostname, warmUp: sendingDomains.warmUp })
    .from(brands)
    .innerJoin(
      sendingDomains,
      and(
        eq(sendingDomains.workspaceId, brands.workspaceId),
        // The sender's domain as senderDomainOf works it out (sender addresses are stored normalised).
        eq(sendingDomains.hostname, sql`rtrim(lower(split_part(${brands.senderEmail}, '@', 2)), '.')`),
      ),
    )
    .where(and(eq(brands.id, campaign.brandId), eq(brands.workspaceId, campaign.workspaceId)));
  return row ? { ...row, workspaceId: campaign.workspaceId } : null;
}

/**
 * Internal: a past day's mail from the domain: sends accepted that UTC day by campaigns whose sender is
 * at it, and how many of them were delivered, complained about, or bounced for good. Read once, when
 * the domain's next sending day begins, so the day's late bounces and complaints have had time to come.
 */
export async function dayDeliverability(ctx: Ctx, domain: WarmUpDomain, day: string): Promise<DayDeliverability> {
  const start = new Date(`${day}T00:00:00.000Z`);
  const end = new Date(start.getTime() + 86_400_000);
  const senders = await ctx.db
    .select({ id: brands.id, senderEmail: brands.senderEmail })
    .from(brands)
    .where(eq(brands.workspaceId, domain.workspaceId));
  const brandIds = senders.filter((b) => senderIsAtDomain(b.senderEmail, domain.hostname)).map((b) => b.id);
  const total: DayDeliverability = { delivered: 0, complained: 0, hardBounced: 0 };
  if (brandIds.length === 0) return total;
  // Campaigns that were sending at some time of the day; each one's sends are a key range.
  const sending = await ctx.db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.workspaceId, domain.workspaceId),
        inArray(campaigns.brandId, brandIds),
        isNotNull(campaigns.sentAt),
        lt(campaigns.sentAt, end),
        or(
          and(isNull(campaigns.completedAt), isNull(campaigns.cancelledAt)),
          gte(campaigns.completedAt, start),
          gte(campaigns.cancelledAt, start),
        ),
      ),
    );
  for (const campaign of sending) {
    const [row] = await ctx.db
      .select({
        delivered: sql<number>`count(*) filter (where ${sends.deliveredAt} is not null)::int`,
        complained: sql<number>`count(*) filter (where ${sends.complainedAt} is not null)::int`,
        hardBounced: sql<number>`count(*) filter (where ${sends.bounceType} = 'permanent')::int`,
      })
      .from(sends)
      .where(and(sendsOfCampaign(campaign), gte(sends.acceptedAt, start), lt(sends.acceptedAt, end)));
    total.delivered += row?.delivered ?? 0;
    total.complained += row?.complained ?? 0;
    total.hardBounced += row?.hardBounced ?? 0;
  }
  return total;
}

/**
 * Internal: the stage a domain sends at on `day`: the stage its row for the day records, or, before the
 * day's first claim, the one its last sending day earns (nextWarmUpStage: one up when that day held
 * the rates, the same when it broke them).
 */
export async function warmUpStageOn(ctx: Ctx, domain: WarmUpDomain, day: string): Promise<number> {
  const [today] = await ctx.db
    .select({ stage: domainWarmUpDays.stage })
    .from(domainWarmUpDays)
    .where(and(eq(domainWarmUpDays.domainId, domain.id), eq(domainWarmUpDays.day, day)));
  if (today) return today.stage;
  const [last] = await ctx.db
    .select()
    .from(domainWarmUpDays)
    .where(and(eq(domainWarmUpDays.domainId, domain.id), lt(domainWarmUpDays.day, day), gt(domainWarmUpDays.used, 0)))
    .orderBy(desc(domainWarmUpDays.day))
    .limit(1);
  if (!last) return nextWarmUpStage(null);
  const heldRates = heldDeliverabilityRates(
    await dayDeliverability(ctx, domain, last.day),
    await guardrailThresholdsOf(ctx, domain.workspaceId),
  );
  return nextWarmUpStage({ stage: last.stage, used: last.used, heldRates });
}

/** Internal: the domain's warm-up today as it stands, without writing anything (the domain page, dispatch's check). */
export async function warmUpToday(ctx: Ctx, domain: WarmUpDomain): Promise<WarmUpDay> {
  const day = warmUpDayOf(ctx.clock.now());
  const [row] = await ctx.db
    .select({ used: domainWarmUpDays.used })
    .from(domainWarmUpDays)
    .where(and(eq(domainWarmUpDays.domainId, domain.id), eq(domainWarmUpDays.day, day)));
  const stage = await warmUpStageOn(ctx, domain, day);
  return { day, stage, cap: warmUpCapOf(stage), used: row?.used ?? 0 };
}

/**
 * Internal, inside the claim's transaction: how many of `wanted` sends a campaign's batch may claim under
 * its domain's cap for today, and `count` to add what it claimed to the day. The day's row is locked until
 * the claim commits, so two campaigns of one domain (or two runs of one) never claim past the cap
 * between them. No cap (warm-up off, no domain at the sender, or the schedule done): `wanted`, uncounted.
 */
export async function claimWarmUpAllowance(
  tx: Ctx,
  campaign: { workspaceId: string; brandId: string },
  wanted: number,
): Promise<{ allowed: number; count: (claimed: number) => Promise<void> }> {
  const unlimited = { allowed: wanted, count: async () => {} };
  const domain = await campaignSendingDomain(tx, campaign);
  if (!domain?.warmUp) return unlimited;
  const day = warmUpDayOf(tx.clock.now());
  const stage = await warmUpStageOn(tx, domain, day);
  await tx.db.insert(domainWarmUpDays).values({ domainId: domain.id, day, stage }).onConflictDoNothing();
  // Once the schedule is done the day's row only records the stage, so later batches find it at once.
  if (warmUpCapOf(stage) === null) return unlimited;
  const [row] = await tx.db
    .select()
    .from(domainWarmUpDays)
    .where(and(eq(domainWarmUpDays.domainId, domain.id), eq(domainWarmUpDays.day, day)))
    .for("update");
  const cap = warmUpCapOf(row!.stage);
  if (cap === null) return unlimited;
  return {
    allowed: Math.max(0, Math.min(wanted, cap - row!.used)),
    count: async (claimed) => {
      if (claimed <= 0) return;
      await tx.db
        .update(domainWarmUpDays)
        .set({ used: sql`${domainWarmUpDays.used} + ${claimed}` })
        .where(and(eq(domainWarmUpDays.domainId, domain.id), eq(domainWarmUpDays.day, day)));
    },
  };
}
