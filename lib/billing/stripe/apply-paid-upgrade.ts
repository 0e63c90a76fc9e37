import "server-only";

import { and, eq, gt } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { billingInvoices, workspaceBilling } from "@/lib/db/schema";

import { lockBilling } from "../ladder-episodes";
import { findPlan } from "../plans";

/**
 * Applies the pending move up (plan and send allowance) once it is paid for: the subscription is
 * `active` as Stripe last reported it, and one of its invoices for the new plan, reaching past now, is
 * paid. Stripe does not promise order, so this runs on both sides: when the invoice is paid and when
 * the subscription's change or status arrives. An invoice paid before the plan last went down pays for
 * no later move up (its time was credited back). Applying twice changes nothing.
 * System: Stripe's webhook; no person's request reaches it.
 */
export async function applyPaidUpgrade(ctx: Ctx, workspaceId: string): Promise<void> {
  const billing = await lockBilling(ctx, workspaceId);
  const plan = findPlan(billing?.pendingPlan);
  if (!billing || !plan || billing.stage === "deleted") return;
  if (billing.stripeSubscriptionStatus !== "active" || !billing.stripeSubscriptionId) return;
  const paid = await ctx.db
    .select({ id: billingInvoices.id })
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.workspaceId, workspaceId),
        eq(billingInvoices.provider, "stripe"),
        eq(billingInvoices.providerSubscriptionId, billing.stripeSubscriptionId),
        eq(billingInvoices.plan, plan.id),
        eq(billingInvoices.status, "paid"),
        gt(billingInvoices.periodEnd, ctx.clock.now()),
        billing.planLoweredAt ? gt(billingInvoices.paidAt, billing.planLoweredAt) : undefined,
      ),
    )
    .limit(1);
  if (paid.length === 0) return;
  await ctx.db
    .update(workspaceBilling)
    .set({ plan: plan.id, sendAllowance: plan.sendAllowance, pendingPlan: null })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
}
