import "server-only";

import { eq } from "drizzle-orm";
import type Stripe from "stripe";

import { systemActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";

import { endLadderEpisode, lockBilling } from "../ladder-episodes";
import { cancelPlan } from "../plan-changes";
import { findPlan } from "../plans";
import { applyPaidUpgrade } from "./apply-paid-upgrade";
import { planOfPrice, type StripeConfig } from "./stripe-config";

/**
 * Stripe's word on the subscription (created or updated, in Checkout or the Customer Portal): its
 * status, its plan and its cancellation. A move down applies at once. A move up (a larger send
 * allowance) waits as the pending plan until it is paid for while the subscription is active
 * (applyPaidUpgrade): upgrading and cancelling before the invoice is paid, or a trialing, incomplete
 * or past-due subscription, never raises the allowance. Stripe does not promise order: an event older
 * than the newest one applied is stale and changes nothing.
 */
export async function applySubscription(
  ctx: Ctx,
  config: StripeConfig,
  workspaceId: string,
  subscription: Stripe.Subscription,
  reportedAt: Date,
): Promise<void> {
  const billing = (await lockBilling(ctx, workspaceId))!;
  if (billing.stripeSubscriptionEventAt && reportedAt < billing.stripeSubscriptionEventAt) return;
  const item = subscription.items.data[0];
  const plan = findPlan(planOfPrice(config, item?.price.id));
  const raises = plan !== undefined && plan.sendAllowance > billing.sendAllowance;
  const lowers = plan !== undefined && plan.sendAllowance < billing.sendAllowance;
  await ctx.db
    .update(workspaceBilling)
    .set({
      stripeSubscriptionId: subscription.id,
      stripeSubscriptionStatus: subscription.status,
      stripeSubscriptionEventAt: reportedAt,
      pendingPlan: raises ? plan.id : null,
      ...(plan && !raises ? { plan: plan.id, sendAllowance: plan.sendAllowance } : {}),
      ...(lowers ? { planLoweredAt: ctx.clock.now() } : {}),
    })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  // The invoice may have been paid before the change or the status reached us.
  if (raises) await applyPaidUpgrade(ctx, workspaceId);
  // A subscription never paid for left no plan to cancel: the trial, or read-only, carries on.
  const hasPlan = billing.plan !== null || (plan !== undefined && !raises);
  if (subscription.cancel_at_period_end && !billing.cancelAtPeriodEnd && hasPlan) {
    await cancelPlan(
      ctx,
      systemActor("stripe", workspaceId),
      item ? new Date(item.current_period_end * 1000) : undefined,
    );
  } else if (
    !subscription.cancel_at_period_end &&
    billing.cancelAtPeriodEnd &&
    billing.ladderCause === "cancelled" &&
    billing.stage === "active"
  ) {
    // The sender took the cancellation back before the period ended.
    await endLadderEpisode(ctx, billing);
    await ctx.db
      .update(workspaceBilling)
      .set({ cancelAtPeriodEnd: false })
      .where(eq(workspaceBilling.workspaceId, workspaceId));
  }
}
