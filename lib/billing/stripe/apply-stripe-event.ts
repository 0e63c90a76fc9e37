import "server-only";

import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";

import { systemActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { stripeEvents, workspaceBilling } from "@/lib/db/schema";

import { recordPaymentFailed, settleInvoice } from "../invoices";
import { lockBilling } from "../ladder-episodes";
import { cancelPlan } from "../plan-changes";
import { applyPaidUpgrade } from "./apply-paid-upgrade";
import { applySubscription } from "./apply-subscription";
import type { StripeConfig } from "./stripe-config";
import { upsertStripeInvoice } from "./upsert-stripe-invoice";

const HANDLED = new Set([
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
]);

/**
 * Applies a verified Stripe event to the ladder, once: Stripe delivers at least once, so the event id
 * is recorded in the same transaction as its effect and a redelivery does nothing. Events for a
 * customer that is not one of ours are acknowledged and ignored.
 */
export async function applyStripeEvent(
  ctx: Ctx,
  config: StripeConfig,
  event: Stripe.Event,
): Promise<"applied" | "duplicate" | "ignored"> {
  if (!HANDLED.has(event.type)) return "ignored";
  return withTransaction(ctx, async (tx) => {
    const fresh = await tx.db
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, receivedAt: tx.clock.now() })
      .onConflictDoNothing()
      .returning();
    if (fresh.length === 0) return "duplicate";
    const object = event.data.object as Stripe.Invoice | Stripe.Subscription;
    const workspaceId = await workspaceOfCustomer(tx, object.customer);
    if (!workspaceId) return "ignored";
    const reportedAt = new Date(event.created * 1000);
    switch (event.type) {
      // Both come for an invoice paid by its payment; invoice.paid also for one marked paid otherwise.
      case "invoice.paid":
      case "invoice.payment_succeeded":
        await settleInvoice(tx, (await upsertStripeInvoice(tx, config, workspaceId, object as Stripe.Invoice)).id);
        await applyPaidUpgrade(tx, workspaceId);
        break;
      case "invoice.payment_failed": {
        // Stripe does not promise order: a failure reported after the invoice was paid changes nothing.
        const invoice = await upsertStripeInvoice(tx, config, workspaceId, object as Stripe.Invoice);
        if (invoice.status !== "paid") await recordPaymentFailed(tx, invoice.id);
        break;
      }
      case "customer.subscription.created":
      case "customer.subscription.updated":
        await applySubscription(tx, config, workspaceId, object as Stripe.Subscription, reportedAt);
        break;
      case "customer.subscription.deleted": {
        // Ended for good: the ladder walks it from read-only now, unless an unpaid invoice already started it.
        // A move up still waiting for its payment never comes, and no older update brings it back.
        const billing = (await lockBilling(tx, workspaceId))!;
        if (!billing.stripeSubscriptionId || billing.stripeSubscriptionId === object.id) {
          await tx.db
            .update(workspaceBilling)
            .set({
              stripeSubscriptionStatus: "canceled",
              pendingPlan: null,
              stripeSubscriptionEventAt: sql`greatest(${workspaceBilling.stripeSubscriptionEventAt}, ${reportedAt.toISOString()})`,
            })
            .where(eq(workspaceBilling.workspaceId, workspaceId));
        }
        if (billing.plan) await cancelPlan(tx, systemActor("stripe", workspaceId), tx.clock.now());
        break;
      }
    }
    return "applied";
  });
}

async function workspaceOfCustomer(ctx: Ctx, customer: Stripe.Invoice["customer"]): Promise<string | null> {
  const id = typeof customer === "string" ? customer : customer?.id;
  if (!id) return null;
  const [row] = await ctx.db
    .select({ workspaceId: workspaceBilling.workspaceId })
    .from(workspaceBilling)
    .where(eq(workspaceBilling.stripeCustomerId, id));
  return row?.workspaceId ?? null;
}
