import "server-only";

import { and, eq, gte, inArray, or } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import {
  campaignGuardrails,
  campaigns,
  reportCampaignCounters,
  type GuardrailReason,
  type GuardrailScope,
  type HarmCounts,
} from "@/lib/db/schema";

import type { GuardrailThresholds } from "./guardrail-schemas";
import { guardrailThresholdsOf } from "./guardrail-thresholds";
import { countsSince, judgeHealth, worse, type Judgement, type Verdict } from "./judge-health";

/** docs/readings.md, "Guardrails: pausing on harm": the brand's window. */
export const BRAND_WINDOW_MS = 24 * 60 * 60_000;

export interface ScopeHealth {
  /** All the mail of the scope. */
  counts: HarmCounts;
  /** What is judged: the mail since a person resumed the campaign after a guardrail pause, else all of it. */
  judged: HarmCounts;
  judgement: Judgement;
}

export interface CampaignHealth {
  campaignId: string;
  thresholds: GuardrailThresholds;
  campaign: ScopeHealth;
  /** The brand's campaigns that sent within the last 24 hours, this one included. */
  brand: ScopeHealth;
  verdict: Verdict;
  reason: GuardrailReason | null;
  scope: GuardrailScope | null;
  /** Set when a person resumed it after a guardrail pause: the guardrail judges the mail since. */
  acknowledgedAt: Date | null;
  /** Set while the campaign stands paused by the guardrail: why, and the counts it stopped on. */
  pausedBy: { reason: GuardrailReason; scope: GuardrailScope; on: { campaign: HarmCounts; brand: HarmCounts } } | null;
}

const ZERO: HarmCounts = { delivered: 0, complained: 0, hardBounced: 0 };

function add(a: HarmCounts, b: HarmCounts): HarmCounts {
  return {
    delivered: a.delivered + b.delivered,
    complained: a.complained + b.complained,
    hardBounced: a.hardBounced + b.hardBounced,
  };
}

/**
 * Internal: the guardrail's counts of some campaigns, from the report counters (kept by triggers, so a
 * complaint counts in the transaction that records it) and the guardrail's own permanent-bounce count.
 * Delivered mail is the deliveries reported or, where the transport reports none (SMTP without
 * delivery reports, the test mailbox), the mail handed over that did not bounce.
 */
export async function harmCountsOf(ctx: Ctx, campaignIds: string[]): Promise<Map<string, HarmCounts>> {
  const result = new Map<string, HarmCounts>();
  if (campaignIds.length === 0) return result;
  const rows = await ctx.db
    .select({
      campaignId: reportCampaignCounters.campaignId,
      accepted: reportCampaignCounters.accepted,
      delivered: reportCampaignCounters.delivered,
      bounced: reportCampaignCounters.bounced,
      complained: reportCampaignCounters.complained,
      hardBounced: campaignGuardrails.hardBounced,
    })
    .from(reportCampaignCounters)
    .leftJoin(campaignGuardrails, eq(campaignGuardrails.campaignId, reportCampaignCounters.campaignId))
    .where(inArray(reportCampaignCounters.campaignId, campaignIds));
  for (const row of rows)
    result.set(row.campaignId, {
      delivered: Math.max(row.delivered, row.accepted - row.bounced),
      complained: row.complained,
      hardBounced: row.hardBounced ?? 0,
    });
  return result;
}

/** Internal: the campaigns of a brand that sent within the window ending now: still sending, or started, paused or finished in it. */
async function brandCampaignIds(ctx: Ctx, workspaceId: string, brandId: string): Promise<string[]> {
  const since = new Date(ctx.clock.now().getTime() - BRAND_WINDOW_MS);
  const rows = await ctx.db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.workspaceId, workspaceId),
        eq(campaigns.brandId, brandId),
        or(
          eq(campaigns.status, "sending"),
          gte(campaigns.sentAt, since),
          gte(campaigns.pausedAt, since),
          gte(campaigns.completedAt, since),
          gte(campaigns.cancelledAt, since),
        ),
      ),
    );
  return rows.map((row) => row.id);
}

/** Internal: the campaign's and its brand's counts now, as a resume acknowledges them. */
export async function currentHarmCounts(
  ctx: Ctx,
  campaign: { id: string; workspaceId: string; brandId: string },
): Promise<{ campaign: HarmCounts; brand: HarmCounts }> {
  const ids = await brandCampaignIds(ctx, campaign.workspaceId, campaign.brandId);
  const counts = await harmCountsOf(ctx, [...new Set([...ids, campaign.id])]);
  return {
    campaign: counts.get(campaign.id) ?? ZERO,
    brand: [...counts.values()].reduce(add, ZERO),
  };
}

function scope(counts: HarmCounts, since: HarmCounts | undefined, thresholds: GuardrailThresholds): ScopeHealth {
  const judged = countsSince(counts, since);
  return { counts, judged, judgement: judgeHealth(judged, thresholds) };
}

/**
 * Internal: how a campaign and its brand's last 24 hours stand against the workspace's thresholds
 * (the caller took the campaign from its actor, or is the guardrail acting for the system).
 */
export async function campaignHealth(
  ctx: Ctx,
  campaign: { id: string; workspaceId: string; brandId: string },
): Promise<CampaignHealth> {
  // One after another: inside a transaction they share one connection.
  const thresholds = await guardrailThresholdsOf(ctx, campaign.workspaceId);
  const counts = await currentHarmCounts(ctx, campaign);
  const [guardrail] = await ctx.db
    .select()
    .from(campaignGuardrails)
    .where(eq(campaignGuardrails.campaignId, campaign.id));
  const acknowledged = guardrail?.acknowledged ?? undefined;
  const own = scope(counts.campaign, acknowledged?.campaign, thresholds);
  const brand = scope(counts.brand, acknowledged?.brand, thresholds);
  const decisive = worse(
    { ...own.judgement, scope: "campaign" as const },
    { ...brand.judgement, scope: "brand" as const },
  );
  return {
    campaignId: campaign.id,
    thresholds,
    campaign: own,
    brand,
    verdict: decisive.verdict,
    reason: decisive.reason,
    scope: decisive.verdict === "ok" ? null : decisive.scope,
    acknowledgedAt: guardrail?.acknowledgedAt ?? null,
    pausedBy:
      guardrail?.pauseReason && guardrail.pauseScope && guardrail.pausedOn
        ? { reason: guardrail.pauseReason, scope: guardrail.pauseScope, on: guardrail.pausedOn }
        : null,
  };
}
