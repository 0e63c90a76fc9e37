import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import { refundSends } from "@/lib/billing/send-allowance";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, sends, type CampaignStatus } from "@/lib/db/schema";
import { acknowledgeGuardrailPause } from "@/lib/deliverability/acknowledge-guardrail-pause";
import { notFound, validationFailed } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { campaignDispatchRequested } from "@/lib/events/workflow-events";

import { assertReachesSomeone } from "./assert-reaches-someone";
import { recordCampaignEvent } from "./campaign-events";
import { assertCanMove } from "./campaign-status";
import { sendsOfCampaign } from "./send-id-range";

type CampaignRow = typeof campaigns.$inferSelect;

/** Sent now, at one instant, or a draft again: no longer at a local time (local-time-schedule.ts). */
const AT_ONE_INSTANT = { localDate: null, localTime: null };

export async function move(
  ctx: Ctx,
  actor: Actor,
  campaignId: string,
  to: CampaignStatus,
  changes: Partial<CampaignRow> = {},
) {
  const [campaign] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), inActorWorkspace(actor, campaigns.workspaceId)))
    .for("update");
  if (!campaign) throw notFound("campaign_not_found", `No campaign ${campaignId}.`);
  assertCanMove(campaign.status, to);
  const now = ctx.clock.now();
  const [moved] = await ctx.db
    .update(campaigns)
    .set({ ...changes, status: to, updatedAt: now })
    .where(eq(campaigns.id, campaignId))
    .returning();
  return { before: campaign, campaign: moved! };
}

/**
 * A schedule came due: the campaign starts sending only if it is still
 * scheduled for that time (it may have been unscheduled, moved or cancelled
 * meanwhile). One guarded statement, the scheduled → sending transition and
 * nothing else, so a concurrent change either lands first or finds it sending.
 */
export async function startScheduledCampaign(ctx: Ctx, campaignId: string, at: Date): Promise<boolean> {
  const started = await ctx.db
    .update(campaigns)
    .set({ status: "sending", updatedAt: ctx.clock.now() })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, "scheduled"), eq(campaigns.scheduledAt, at)))
    .returning({ id: campaigns.id });
  return started.length > 0;
}

/** A dispatch run per request; the event id makes a repeated request start nothing new. */
export function requestDispatch(ctx: Ctx, campaign: CampaignRow, at: Date | null, attempt: string) {
  return emitEvents(ctx, [
    {
      name: campaignDispatchRequested.name,
      id: `dispatch-${campaign.id}-${attempt}`,
      data: { campaignId: campaign.id, at: at?.toISOString() ?? null },
    },
  ]);
}

/** Refused with `no_recipients` when nobody would get it now (assert-reaches-someone.ts). */
export function sendCampaignNow(ctx: Ctx, actor: Actor, campaignId: string) {
  return withTransaction(ctx, async (tx) => {
    const { campaign } = await move(tx, actor, campaignId, "sending", { scheduledAt: null, ...AT_ONE_INSTANT });
    await assertReachesSomeone(tx, campaign);
    await requestDispatch(tx, campaign, null, `now-${tx.clock.now().getTime()}`);
    return campaign;
  });
}

/**
 * Only for a time still ahead: a past one would start it at once, unlike what its sender asked. Refused
 * with `no_recipients` when nobody would get it now: the audience is judged when scheduling, as when sending.
 */
export function scheduleCampaign(ctx: Ctx, actor: Actor, campaignId: string, at: Date) {
  return withTransaction(ctx, async (tx) => {
    if (Number.isNaN(at.getTime()) || at <= tx.clock.now())
      throw validationFailed("at", "at: pick a time in the future.");
    const { campaign } = await move(tx, actor, campaignId, "scheduled", { scheduledAt: at, ...AT_ONE_INSTANT });
    await assertReachesSomeone(tx, campaign);
    await requestDispatch(tx, campaign, at, `at-${at.getTime()}`);
    return campaign;
  });
}

/** Back to draft; the waiting dispatch run finds it no longer scheduled and does nothing. */
export function unscheduleCampaign(ctx: Ctx, actor: Actor, campaignId: string) {
  return withTransaction(
    ctx,
    async (tx) => (await move(tx, actor, campaignId, "draft", { scheduledAt: null, ...AT_ONE_INSTANT })).campaign,
  );
}

/** Stops between batches; resume carries on where it stopped. */
export function pauseCampaign(ctx: Ctx, actor: Actor, campaignId: string) {
  return withTransaction(ctx, async (tx) => {
    const { campaign } = await move(tx, actor, campaignId, "paused", { pausedAt: tx.clock.now() });
    await recordCampaignEvent(tx, campaign, "campaign.paused", { pause_reason: null });
    return campaign;
  });
}

/** After a guardrail pause, only a person who saw the figures resumes it (acknowledge-guardrail-pause.ts). */
export function resumeCampaign(ctx: Ctx, actor: Actor, campaignId: string, options: { acknowledged?: boolean } = {}) {
  return withTransaction(ctx, async (tx) => {
    const { campaign } = await move(tx, actor, campaignId, "sending", { pausedAt: null });
    await acknowledgeGuardrailPause(tx, actor, campaign, options.acknowledged === true);
    await requestDispatch(tx, campaign, null, `resume-${tx.clock.now().getTime()}`);
    return campaign;
  });
}

/** Queued recipients are not sent to and their reserved allowance is refunded. */
export function cancelCampaign(ctx: Ctx, actor: Actor, campaignId: string) {
  return withTransaction(ctx, async (tx) => {
    const { before, campaign } = await move(tx, actor, campaignId, "cancelled", { cancelledAt: tx.clock.now() });
    const dropped = await tx.db
      .update(sends)
      .set({ state: "cancelled", updatedAt: tx.clock.now() })
      .where(and(sendsOfCampaign(campaign), eq(sends.state, "queued")))
      .returning({ id: sends.id });
    // The allowance is reserved once the snapshot is complete: a cancel during the snapshot has nothing to refund.
    const refunded = before.recipientCount === null ? 0 : dropped.length;
    await refundSends(tx, campaign.workspaceId, refunded);
    if (before.status !== "scheduled") await recordCampaignEvent(tx, campaign, "campaign.cancelled");
    return { campaign, refunded };
  });
}

/** A brand's review ended: every campaign of it still sending gets a dispatch run again (a held one had stopped). */
export async function resumeHeldCampaigns(ctx: Ctx, actor: Actor, brandId: string): Promise<number> {
  const sending = await ctx.db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.brandId, brandId),
        inActorWorkspace(actor, campaigns.workspaceId),
        eq(campaigns.status, "sending"),
      ),
    );
  for (const campaign of sending)
    await requestDispatch(ctx, campaign, null, `review-ended-${ctx.clock.now().getTime()}`);
  return sending.length;
}
