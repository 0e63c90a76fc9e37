import "server-only";

import { eq, sql } from "drizzle-orm";

import { billingAllowsSending } from "@/lib/billing/billing-allows-sending";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands, campaigns, sends, workspaceBilling } from "@/lib/db/schema";
import type { MailboxProvider } from "@/lib/deliverability/mailbox-provider";
import { claimWarmUpAllowance } from "@/lib/domains/domain-warm-up";

import { notHeldForAbWinner } from "./ab-test-dispatch";
import { claimByProvider } from "./claim-by-provider";
import { sendsOfCampaign } from "./send-id-range";

/** `ab_variant`: the A/B test variant the send carries; null without a test, or for the rest (sent the winner). */
export type ClaimedSend = {
  id: string;
  contact_id: string;
  email: string;
  provider: MailboxProvider;
  ab_variant: number | null;
};
export type Campaign = typeof campaigns.$inferSelect;

/**
 * Which sends a batch takes: up to `size` after `after` in the campaign's key range, for the run
 * `claimant`, each provider within its pace.
 */
export interface BatchRequest {
  campaignId: string;
  size: number;
  claimant: string;
  after: string | null;
}

export type BatchClaim =
  { stopped: string } | { campaign: Campaign; rows: ClaimedSend[]; heldElsewhere: boolean; wakeAt: Date | null };

/** Rows left in `sending` by a run that died for good are taken over after this long. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Step one of a batch: moves its sends queued → sending, marked with the
 * claiming run, in one transaction. The run takes its own `sending` rows
 * first when it resumes after a crash (it starts from the same `after`);
 * another run racing on the campaign never takes them, only rows abandoned
 * for 10 minutes. Stops (nothing claimed) when the campaign is no longer
 * sending, its brand is held for review, or billing has paused the workspace.
 */
export async function claimBatch(ctx: Ctx, request: BatchRequest): Promise<BatchClaim> {
  return withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db.select().from(campaigns).where(eq(campaigns.id, request.campaignId));
    if (!campaign) return { stopped: "missing" };
    // A run stopped until the campaign may go on (paused, brand in review, billing) gives back the sends
    // it still holds, a batch cut short by a crash: the run that resumes the campaign takes them at once
    // instead of after ABANDONED_AFTER_MS. Cancelling settles the sends itself.
    const stop = async (stopped: string) => {
      await tx.db.execute(sql`
        update ${sends} set state = 'queued', claimed_by = null, updated_at = ${tx.clock.now().toISOString()}
        where ${sendsOfCampaign(campaign)} and state = 'sending' and claimed_by = ${request.claimant}`);
      return { stopped };
    };
    if (campaign.status === "paused") return stop("paused");
    if (campaign.status !== "sending") return { stopped: campaign.status };
    // An identity edit holds the brand's sending until its review ends; approval starts dispatch again.
    const [held] = await tx.db.select({ at: brands.sendingHeldAt }).from(brands).where(eq(brands.id, campaign.brandId));
    if (held?.at) return stop("brand_in_review");
    // Billing stops sending at the next batch (an unpaid invoice, read-only, an ended trial); settling starts dispatch again.
    const [billing] = await tx.db
      .select()
      .from(workspaceBilling)
      .where(eq(workspaceBilling.workspaceId, campaign.workspaceId));
    if (billing && !billingAllowsSending(billing, tx.clock.now())) return stop("billing_paused");
    const now = tx.clock.now();
    // A domain in warm-up caps what its campaigns claim in a day. With the day's cap used (by another
    // campaign of the domain since dispatch asked), nothing is claimed: while sends are left, dispatch
    // waits, then asks again and sleeps to the next day.
    const warmUp = await claimWarmUpAllowance(tx, campaign, request.size);
    if (warmUp.allowed === 0) {
      const [left] = await tx.db.execute<{ held: boolean }>(sql`
        select exists (select 1 from ${sends} where ${sendsOfCampaign(campaign)} and state in ('queued', 'sending') ${notHeldForAbWinner(campaign)}) as held`);
      return { campaign, rows: [], heldElsewhere: Boolean(left!.held), wakeAt: null };
    }
    // Each provider's share of the batch, within its pace (claim-by-provider.ts); sends taken back after a
    // crash were counted against the cap already.
    const { rows, fresh, wakeAt } = await claimByProvider(
      tx,
      campaign,
      { ...request, size: warmUp.allowed },
      new Date(now.getTime() - ABANDONED_AFTER_MS),
    );
    await warmUp.count(fresh);
    if (rows.length > 0) return { campaign, rows, heldElsewhere: false, wakeAt: null };
    const [out] = await tx.db.execute<{ held: boolean }>(sql`
      select exists (select 1 from ${sends} where ${sendsOfCampaign(campaign)} and state = 'sending') as held`);
    return { campaign, rows, heldElsewhere: Boolean(out!.held), wakeAt };
  });
}
