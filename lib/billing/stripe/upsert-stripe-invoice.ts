import "server-only";

import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";

import type { Ctx } from "@/lib/context";
import { billingInvoices } from "@/lib/db/schema";

import { issueInvoice } from "../invoices";
import { planOfPrice, type StripeConfig } from "./stripe-config";

/** The Stripe invoice as ours: found by its id, or issued in the workspace's currency with Stripe's figures. */
export async function upsertStripeInvoice(
  ctx: Ctx,
  config: StripeConfig,
  workspaceId: string,
  invoice: Stripe.Invoice,
) {
  const [existing] = await ctx.db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.provider, "stripe"), eq(billingInvoices.providerInvoiceId, invoice.id!)));
  if (existing) return existing;
  const { plan, period } = paidFor(config, invoice);
  const subscription = invoice.parent?.subscription_details?.subscription;
  return issueInvoice(ctx, {
    workspaceId,
    provider: "stripe",
    providerInvoiceId: invoice.id!,
    providerSubscriptionId: (typeof subscription === "string" ? subscription : subscription?.id) ?? null,
    amount: Math.max(invoice.amount_due, 1),
    plan,
    dueAt: new Date((invoice.due_date ?? invoice.created) * 1000),
    periodStart: new Date(period.start * 1000),
    periodEnd: new Date(period.end * 1000),
    hostedUrl: invoice.hosted_invoice_url ?? null,
  });
}

/**
 * The plan and period the invoice pays for, from its charges for one of our prices: a prorated move up
 * starts with a credit for the old plan's unused time, and a cycle's invoice carries the last cycle's
 * prorations before the new month, so the charge reaching furthest ahead says it. A free line (a
 * trial's) pays for no plan; without a charge the first line (or the invoice) gives the period.
 */
function paidFor(
  config: StripeConfig,
  invoice: Stripe.Invoice,
): { plan: string | null; period: { start: number; end: number } } {
  const lines = invoice.lines?.data ?? [];
  const planOf = (line: Stripe.InvoiceLineItem) => {
    const price = line.pricing?.price_details?.price;
    return planOfPrice(config, typeof price === "string" ? price : price?.id);
  };
  const charges = lines.filter((line) => line.amount > 0 && planOf(line));
  if (charges.length === 0)
    return { plan: null, period: lines[0]?.period ?? { start: invoice.period_start, end: invoice.period_end } };
  const line = charges.reduce((best, next) => (next.period.end > best.period.end ? next : best));
  return { plan: planOf(line), period: line.period };
}
