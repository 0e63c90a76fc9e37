import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workspaceBilling, workspaces } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { appUrl } from "@/lib/runtime/app-url";

import { findPlan } from "../plans";
import { stripeClient, type StripeConfig } from "./stripe-config";

const billingPage = (workspaceId: string) => `${appUrl()}/w/${workspaceId}/billing`;

/**
 * Stripe Checkout for a plan: the workspace's Stripe customer (made on first use, tagged with the
 * workspace id) subscribes to the plan's price in the workspace's currency. Returns the page to send
 * the sender to; the subscription's invoices reach us through the webhook.
 */
export async function startCheckout(
  ctx: Ctx,
  config: StripeConfig,
  workspaceId: string,
  planId: string,
): Promise<string> {
  const plan = findPlan(planId);
  const price = config.prices[planId];
  if (!plan || !price)
    throw new ApiError({
      type: "invalid_request_error",
      code: "validation_failed",
      param: "plan",
      message: `No plan ${planId} can be bought.`,
    });
  const stripe = stripeClient(config);
  const customer = await ensureCustomer(ctx, config, workspaceId);
  const [billing] = await ctx.db
    .select({ currency: workspaceBilling.currency })
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: workspaceId,
    currency: billing!.currency,
    line_items: [{ price, quantity: 1 }],
    subscription_data: { metadata: { workspace_id: workspaceId, plan: planId } },
    success_url: `${billingPage(workspaceId)}?checkout=done`,
    cancel_url: billingPage(workspaceId),
  });
  if (!session.url) throw new Error("Stripe Checkout returned no URL");
  return session.url;
}

/** Stripe's Customer Portal, where the sender changes the card or cancels. */
export async function openCustomerPortal(ctx: Ctx, config: StripeConfig, workspaceId: string): Promise<string> {
  const customer = await ensureCustomer(ctx, config, workspaceId);
  const session = await stripeClient(config).billingPortal.sessions.create({
    customer,
    return_url: billingPage(workspaceId),
  });
  return session.url;
}

async function ensureCustomer(ctx: Ctx, config: StripeConfig, workspaceId: string): Promise<string> {
  const [row] = await ctx.db
    .select({ customer: workspaceBilling.stripeCustomerId, name: workspaces.name })
    .from(workspaceBilling)
    .innerJoin(workspaces, eq(workspaces.id, workspaceBilling.workspaceId))
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  if (!row) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`, "workspace");
  if (row.customer) return row.customer;
  // The idempotency key makes two clicks at once create one customer.
  const customer = await stripeClient(config).customers.create(
    { name: row.name, metadata: { workspace_id: workspaceId } },
    { idempotencyKey: `customer-${workspaceId}` },
  );
  await ctx.db
    .update(workspaceBilling)
    .set({ stripeCustomerId: customer.id, provider: "stripe" })
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  return customer.id;
}
