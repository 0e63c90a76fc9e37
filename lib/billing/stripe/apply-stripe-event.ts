import "server-only";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { withTransaction, type Ctx } from "@/lib/context";
import { billingInvoices, stripeEvents, workspaceBilling } from "@/lib/db/schema";
import { issueInvoice, recordPaymentFailed, settleInvoice } from "../invoices";
import { endLadderEpisode, lockBilling } from "../ladder-episodes";
import { cancelPlan } from "../plan-changes";
import { findPlan } from "../plans";
import { planOfPrice, type StripeConfig } from "./stripe-config";

const HANDLED = new Set(["invoice.paid", "invoice.payment_failed", "customer.subscription.updated", "customer.subscription.deleted"]);

/**
 * Applies a verified Stripe event to the ladder, once: Stripe delivers at least once, so the event id
 * is recorded in the same transaction as its effect and a redelivery does nothing. Events for a
 * customer that is not one of ours are acknowledged and ignored.
 */
export async function applyStripeEvent(ctx: Ctx, config: StripeConfig, event: Stripe.Event): Promise<"applied" | "duplicate" | "ignored"> {
  if (!HANDLED.has(event.type)) return "ignored";
  return withTransaction(ctx, async (tx) => {
    const fresh = await tx.db.insert(stripeEvents).values({ id: event.id, type: event.type, receivedAt: tx.clock.now() }).onConflictDoNothing().returning();
    if (fresh.length === 0) return "duplicate";
    const object = event.data.object as Stripe.Invoice | Stripe.Subscription;
    const workspaceId = await workspaceOfCustomer(tx, object.customer);
    if (!workspaceId) return "ignored";
    switch (event.type) {
      case "invoice.paid":
        await settleInvoice(tx, (await upsertInvoice(tx, config, workspaceId, object as Stripe.Invoice)).id);
        break;
      case "invoice.payment_failed": {
        // Stripe does not promise order: a failure reported after the invoice was paid changes nothing.
        const invoice = await upsertInvoice(tx, config, workspaceId, object as Stripe.Invoice);
        if (invoice.status !== "paid") await recordPaymentFailed(tx, invoice.id);
        break;
      }
      case "customer.subscription.updated":
        await applySubscription(tx, config, workspaceId, object as Stripe.Subscription);
        break;
      case "customer.subscription.deleted": {
        // Ended for good: the ladder walks it from read-only now, unless an unpaid invoice already started it.
        const [billing] = await tx.db.select({ plan: workspaceBilling.plan }).from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId));
        if (billing?.plan) await cancelPlan(tx, workspaceId, tx.clock.now());
        break;
      }
    }
    return "applied";
  });
}

async function workspaceOfCustomer(ctx: Ctx, customer: Stripe.Invoice["customer"]): Promise<string | null> {
  const id = typeof customer === "string" ? customer : customer?.id;
  if (!id) return null;
  const [row] = await ctx.db.select({ workspaceId: workspaceBilling.workspaceId }).from(workspaceBilling).where(eq(workspaceBilling.stripeCustomerId, id));
  return row?.workspaceId ?? null;
}

/** The Stripe invoice as ours: found by its id, or issued in the workspace's currency with Stripe's figures. */
async function upsertInvoice(ctx: Ctx, config: StripeConfig, workspaceId: string, invoice: Stripe.Invoice) {
  const [existing] = await ctx.db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.provider, "stripe"), eq(billingInvoices.providerInvoiceId, invoice.id!)));
  if (existing) return existing;
  const line = invoice.lines?.data?.[0];
  const price = line?.pricing?.price_details?.price;
  const period = line?.period ?? { start: invoice.period_start, end: invoice.period_end };
  return issueInvoice(ctx, {
    workspaceId,
    provider: "stripe",
    providerInvoiceId: invoice.id!,
    amount: Math.max(invoice.amount_due, 1),
    plan: planOfPrice(config, typeof price === "string" ? price : price?.id),
    dueAt: new Date((invoice.due_date ?? invoice.created) * 1000),
    periodStart: new Date(period.start * 1000),
    periodEnd: new Date(period.end * 1000),
    hostedUrl: invoice.hosted_invoice_url ?? null,
  });
}

/** Plan changes and cancellations made in the Customer Portal. */
async function applySubscription(ctx: Ctx, config: StripeConfig, workspaceId: string, subscription: Stripe.Subscription) {
  const item = subscription.items.data[0];
  const plan = findPlan(planOfPrice(config, item?.price.id));
  const billing = (await lockBilling(ctx, workspaceId))!;
  await ctx.db
    .update(workspaceBilling)
    .set({ stripeSubscriptionId: subscription.id, ...(plan ? { plan: plan.id, sendAllowance: plan.sendAllowance } : {}) })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  if (subscription.cancel_at_period_end && !billing.cancelAtPeriodEnd) {
    await cancelPlan(ctx, workspaceId, item ? new Date(item.current_period_end * 1000) : undefined);
  } else if (!subscription.cancel_at_period_end && billing.cancelAtPeriodEnd && billing.ladderCause === "cancelled" && billing.stage === "active") {
    // The sender took the cancellation back before the period ended.
    await endLadderEpisode(ctx, billing);
    await ctx.db.update(workspaceBilling).set({ cancelAtPeriodEnd: false }).where(eq(workspaceBilling.workspaceId, workspaceId));
  }
}
