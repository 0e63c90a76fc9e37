import "server-only";

import { and, eq, ne, sql } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { billingInvoices, workspaceBilling, type BillingProvider } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";

import { billingContinues } from "./billing-stage";
import { endLadderEpisode, lockBilling, startLadderEpisode } from "./ladder-episodes";
import { DAY_MS } from "./plan-defaults";
import { findPlan } from "./plans";
import { resumeWorkspaceSending } from "./resume-workspace-sending";

type Invoice = typeof billingInvoices.$inferSelect;

export interface NewInvoice {
  workspaceId: string;
  /** Minor units of the workspace's currency. */
  amount: number;
  plan?: string | null;
  dueAt?: Date;
  provider?: BillingProvider;
  providerInvoiceId?: string | null;
  /** Stripe's subscription the invoice bills, if any. */
  providerSubscriptionId?: string | null;
  hostedUrl?: string | null;
  periodStart?: Date;
  periodEnd?: Date;
}

/**
 * Issues an invoice in the workspace's currency (never another: it is fixed at creation). Its period
 * follows what is already paid: a month from the end of the paid period, or from now.
 */
export async function issueInvoice(ctx: Ctx, input: NewInvoice): Promise<Invoice> {
  return withTransaction(ctx, async (tx) => {
    const billing = await lockBilling(tx, input.workspaceId);
    if (!billing) throw notFound("workspace_not_found", `No workspace ${input.workspaceId}.`, "workspace");
    // Stripe's invoices are history to keep whatever the stage; the operator does not bill a deleted workspace.
    if (!billingContinues(billing.stage) && (input.provider ?? "manual") === "manual")
      throw inactive("A deleted workspace is not invoiced.");
    if (!Number.isInteger(input.amount) || input.amount <= 0)
      throw new ApiError({
        type: "invalid_request_error",
        code: "validation_failed",
        param: "amount",
        message: "The amount must be a positive sum.",
      });
    const plan = input.plan === undefined ? billing.plan : input.plan;
    if (plan && !findPlan(plan))
      throw new ApiError({
        type: "invalid_request_error",
        code: "validation_failed",
        param: "plan",
        message: `No plan ${plan}.`,
      });
    const now = tx.clock.now();
    const periodStart =
      input.periodStart ?? (billing.paidThrough && billing.paidThrough > now ? billing.paidThrough : now);
    const [invoice] = await tx.db
      .insert(billingInvoices)
      .values({
        id: newId("inv"),
        workspaceId: input.workspaceId,
        provider: input.provider ?? "manual",
        providerInvoiceId: input.providerInvoiceId ?? null,
        providerSubscriptionId: input.providerSubscriptionId ?? null,
        plan,
        amount: input.amount,
        currency: billing.currency,
        dueAt: input.dueAt ?? new Date(now.getTime() + 7 * DAY_MS),
        periodStart,
        periodEnd: input.periodEnd ?? addMonth(periodStart),
        hostedUrl: input.hostedUrl ?? null,
        createdAt: now,
      })
      .returning();
    return invoice!;
  });
}

/**
 * A collection attempt failed: sending stops at the next batch and the ladder starts (or carries on,
 * when another invoice already started it). A paid invoice cannot fail afterwards.
 */
export async function recordPaymentFailed(ctx: Ctx, invoiceId: string): Promise<Invoice> {
  return withTransaction(ctx, async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (invoice.status === "paid")
      throw new ApiError({
        type: "invalid_request_error",
        code: "invoice_paid",
        param: "invoice",
        message: `Invoice ${invoiceId} is already paid.`,
      });
    const now = tx.clock.now();
    const [failed] = await tx.db
      .update(billingInvoices)
      .set({ status: "failed", failedAt: now })
      .where(eq(billingInvoices.id, invoiceId))
      .returning();
    const billing = (await lockBilling(tx, invoice.workspaceId))!;
    if (billing.stage !== "deleted") await startLadderEpisode(tx, billing, "payment_failed", now);
    return failed!;
  });
}

/**
 * The invoice is paid. Once no other invoice is owed, the workspace is active again at once: the
 * ladder stops, the invoice's plan and period apply, and every campaign held by billing carries on,
 * a scheduled one whose time passed meanwhile included. Settling twice changes nothing.
 */
export async function settleInvoice(ctx: Ctx, invoiceId: string): Promise<Invoice> {
  return withTransaction(ctx, async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (invoice.status === "paid") return invoice;
    if (invoice.status === "void")
      throw new ApiError({
        type: "invalid_request_error",
        code: "invoice_void",
        param: "invoice",
        message: `Invoice ${invoiceId} was voided.`,
      });
    const now = tx.clock.now();
    const [paid] = await tx.db
      .update(billingInvoices)
      .set({ status: "paid", paidAt: now })
      .where(eq(billingInvoices.id, invoiceId))
      .returning();
    const billing = (await lockBilling(tx, invoice.workspaceId))!;
    // Deleted is final: the payment is recorded, the data does not come back.
    if (billing.stage === "deleted") return paid!;
    // A Stripe invoice's plan comes through its subscription (stripe/apply-paid-upgrade.ts): only an
    // active one's paid invoice raises the allowance, and Stripe says when a plan goes down.
    const plan = findPlan(invoice.provider === "stripe" ? billing.plan : (invoice.plan ?? billing.plan));
    // Paying for time beyond the paid period renews the plan; paying within it (a move up mid-period,
    // prorated) starts no period, so the period's count carries on.
    const renews = !billing.paidThrough || invoice.periodEnd > billing.paidThrough;
    // A period paid ahead starts when its date comes (startDuePeriods), not at payment.
    const newPeriod = renews && invoice.periodStart > billing.periodStartedAt && invoice.periodStart <= now;
    await tx.db
      .update(workspaceBilling)
      .set({
        plan: plan?.id ?? billing.plan,
        sendAllowance: plan?.sendAllowance ?? billing.sendAllowance,
        paidThrough:
          billing.paidThrough && billing.paidThrough > invoice.periodEnd ? billing.paidThrough : invoice.periodEnd,
        ...(newPeriod ? { periodStartedAt: invoice.periodStart, sendsUsed: 0 } : {}),
      })
      .where(eq(workspaceBilling.workspaceId, billing.workspaceId));
    const stillOwed = await tx.db
      .select({ id: billingInvoices.id })
      .from(billingInvoices)
      .where(
        and(
          eq(billingInvoices.workspaceId, billing.workspaceId),
          eq(billingInvoices.status, "failed"),
          ne(billingInvoices.id, invoiceId),
        ),
      );
    // Renewing is choosing the plan again: a pending cancellation is withdrawn.
    if (stillOwed.length === 0) await reactivate(tx, billing, { withdrawCancellation: renews });
    return paid!;
  });
}

/**
 * Active again: the ladder's episode ends and held campaigns carry on. A pending cancellation stays
 * (its walk starts again from the end of the paid period) unless the payment renewed the plan.
 */
export async function reactivate(
  ctx: Ctx,
  billing: typeof workspaceBilling.$inferSelect,
  options: { withdrawCancellation: boolean },
): Promise<void> {
  const now = ctx.clock.now();
  await endLadderEpisode(ctx, billing);
  const keepsCancellation = billing.cancelAtPeriodEnd && !options.withdrawCancellation;
  await ctx.db
    .update(workspaceBilling)
    .set({
      cancelAtPeriodEnd: keepsCancellation,
      ...(billing.stage !== "active" ? { stage: "active" as const, stageEnteredAt: now } : {}),
    })
    .where(eq(workspaceBilling.workspaceId, billing.workspaceId));
  if (keepsCancellation) {
    const current = (await lockBilling(ctx, billing.workspaceId))!;
    await startLadderEpisode(ctx, current, "cancelled", current.paidThrough ?? now);
  }
  await resumeWorkspaceSending(ctx, billing.workspaceId);
}

/**
 * Periods paid ahead begin when their date comes: the allowance's count starts again. Run by the
 * quarter-hourly billing cron. An invoice paid once its period had begun was dealt with at payment
 * (settleInvoice), which a move up paid mid-period does not start a period with.
 */
export async function startDuePeriods(ctx: Ctx): Promise<number> {
  const now = ctx.clock.now();
  const started = await ctx.db.execute(sql`
    update workspace_billing b set period_started_at = p.period_start, sends_used = 0
    from (select workspace_id, max(period_start) as period_start from billing_invoices
          where status = 'paid' and paid_at < period_start and period_start <= ${now.toISOString()} group by workspace_id) p
    where p.workspace_id = b.workspace_id and p.period_start > b.period_started_at and b.stage <> 'deleted'`);
  return started.count;
}

async function lockInvoice(ctx: Ctx, invoiceId: string): Promise<Invoice> {
  const [invoice] = await ctx.db.select().from(billingInvoices).where(eq(billingInvoices.id, invoiceId)).for("update");
  if (!invoice) throw notFound("invoice_not_found", `No invoice ${invoiceId}.`, "invoice");
  return invoice;
}

export function inactive(message: string): ApiError {
  return new ApiError({ type: "permission_error", code: "team_inactive", message });
}

function addMonth(date: Date): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * The invoice's id when it is the named workspace's: an operator's crafted call cannot reach another's.
 * System: the operator's billing actions, whose caller findOperator checked; no workspace member reaches it.
 */
export async function invoiceOfWorkspace(ctx: Ctx, workspaceId: string, invoiceId: string): Promise<string> {
  const [invoice] = await ctx.db
    .select({ id: billingInvoices.id })
    .from(billingInvoices)
    .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.workspaceId, workspaceId)));
  if (!invoice) throw notFound("invoice_not_found", `No invoice ${invoiceId} in this workspace.`, "invoice");
  return invoice.id;
}
