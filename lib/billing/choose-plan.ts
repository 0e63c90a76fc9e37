import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { billingInvoices, workspaceBilling } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";

import { assertManagesBilling } from "./billing-managers";
import { billingContinues } from "./billing-stage";
import { inactive, issueInvoice } from "./invoices";
import { findPlan, type Currency } from "./plans";
import { stripeConfig } from "./stripe/stripe-config";
import { openCustomerPortal, startCheckout } from "./stripe/stripe-sessions";

export type PlanChoice = { checkoutUrl: string } | { invoiceId: string; amount: number; currency: string };

/**
 * The sender chose a plan. With Stripe: its Checkout (its portal for a subscriber), and the webhook settles. Without: an invoice for
 * the plan in the workspace's currency, which the service's team settles when the payment arrives
 * (choosing the same plan again shows the invoice already open rather than issuing another).
 */
export async function choosePlan(ctx: Ctx, actor: WorkspaceActor, planId: string): Promise<PlanChoice> {
  await assertManagesBilling(ctx, actor);
  const workspaceId = actor.workspaceId;
  const plan = findPlan(planId);
  if (!plan)
    throw new ApiError({
      type: "invalid_request_error",
      code: "validation_failed",
      param: "plan",
      message: `No plan ${planId}.`,
    });
  const [billing] = await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId));
  if (!billing) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`, "workspace");
  if (!billingContinues(billing.stage)) throw inactive("This workspace was deleted; create a new one to start again.");
  const config = stripeConfig();
  // A subscriber changes plan in Stripe's portal: a second Checkout would start a second subscription.
  if (config)
    return {
      checkoutUrl: billing.stripeSubscriptionId
        ? await openCustomerPortal(ctx, config, workspaceId)
        : await startCheckout(ctx, config, workspaceId, planId),
    };
  const [open] = await ctx.db
    .select()
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.workspaceId, workspaceId),
        eq(billingInvoices.plan, planId),
        eq(billingInvoices.status, "open"),
      ),
    );
  const invoice =
    open ?? (await issueInvoice(ctx, { workspaceId, amount: plan.price[billing.currency as Currency], plan: planId }));
  return { invoiceId: invoice.id, amount: invoice.amount, currency: invoice.currency };
}

/** Where the sender updates the card or cancels: Stripe's portal; the manual provider has none. */
export async function paymentPortalUrl(ctx: Ctx, actor: WorkspaceActor): Promise<string> {
  await assertManagesBilling(ctx, actor);
  const config = stripeConfig();
  if (!config)
    throw new ApiError({
      type: "invalid_request_error",
      code: "no_payment_provider",
      message: "Payments are arranged with the service's team: reply to any invoice mail.",
    });
  return openCustomerPortal(ctx, config, actor.workspaceId);
}
