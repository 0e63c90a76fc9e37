import { systemActor } from "@/lib/actor";
import { getBillingOrThrow, type BillingOverview } from "@/lib/billing/get-billing";
import { issueInvoice, recordPaymentFailed, settleInvoice, type NewInvoice } from "@/lib/billing/invoices";
import { parseAmount } from "@/lib/billing/parse-amount";
import { cancelPlan, pauseLadderClock, resumeLadderClock } from "@/lib/billing/plan-changes";
import type { Ctx } from "@/lib/context";
import { validationFailed } from "@/lib/errors";

import { string, type AdminCommand } from "./admin-command";

type Invoice = BillingOverview["invoices"][number];

const iso = (date: Date | null) => date?.toISOString() ?? null;

function invoiceJson(invoice: Invoice) {
  return {
    invoice_id: invoice.id,
    workspace_id: invoice.workspaceId,
    provider: invoice.provider,
    plan: invoice.plan,
    amount: invoice.amount,
    currency: invoice.currency,
    status: invoice.status,
    due_at: iso(invoice.dueAt),
    period_start: iso(invoice.periodStart),
    period_end: iso(invoice.periodEnd),
    paid_at: iso(invoice.paidAt),
    failed_at: iso(invoice.failedAt),
    hosted_url: invoice.hostedUrl,
  };
}

function billingJson(billing: BillingOverview) {
  return {
    workspace_id: billing.workspaceId,
    stage: billing.stage,
    stage_entered_at: iso(billing.stageEnteredAt),
    next_stages: billing.upcoming.map((next) => ({ stage: next.stage, at: iso(next.at) })),
    clock_paused_since: iso(billing.clockPausedSince),
    provider: billing.provider,
    currency: billing.currency,
    plan: billing.plan?.id ?? null,
    trial_ends_at: iso(billing.trialEndsAt),
    allowance: {
      sends: billing.sendAllowance,
      used: billing.sendsUsed,
      period_started_at: iso(billing.periodStartedAt),
    },
    paid_through: iso(billing.paidThrough),
    cancel_at_period_end: billing.cancelAtPeriodEnd,
    invoices: billing.invoices.map(invoiceJson),
  };
}

function parseDate(raw: string | undefined, param: string): Date | undefined {
  if (raw === undefined) return undefined;
  // A bare date is due by the end of that day (UTC), as the operator screen's date field means.
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T23:59:59Z` : raw);
  if (Number.isNaN(date.getTime()))
    throw validationFailed(param, `${param}: not a date (use ISO 8601, e.g. 2027-03-10).`);
  return date;
}

/** The manual billing provider: the operator invoices and records payments (Stripe does both itself). */
export const billingCommands: Record<string, AdminCommand> = {
  "billing:invoice": {
    summary:
      "--workspace ID --amount N [--due DATE] [--plan starter|growth|scale]   (N in the workspace's currency, e.g. 79.50)",
    options: { workspace: string, amount: string, due: string, plan: string },
    required: ["workspace", "amount"],
    run: async (ctx, v) => {
      const input: NewInvoice = {
        workspaceId: v.workspace as string,
        amount: parseAmount(v.amount as string),
        dueAt: parseDate(v.due as string | undefined, "due"),
      };
      if (typeof v.plan === "string") input.plan = v.plan;
      return invoiceJson(await issueInvoice(ctx, input));
    },
  },
  "billing:payment-failed": {
    summary: "--invoice ID   (sending pauses; the ladder starts)",
    options: { invoice: string },
    required: ["invoice"],
    run: async (ctx, v) => invoiceJson(await recordPaymentFailed(ctx, v.invoice as string)),
  },
  "billing:settle": {
    summary: "--invoice ID   (paid: the workspace is active again and sending resumes)",
    options: { invoice: string },
    required: ["invoice"],
    run: async (ctx, v) => invoiceJson(await settleInvoice(ctx, v.invoice as string)),
  },
  "billing:cancel": actOnWorkspace("(takes effect at the end of the paid period)", (ctx, workspaceId) =>
    cancelPlan(ctx, systemActor("admin-cli", workspaceId)),
  ),
  "billing:pause-clock": actOnWorkspace(
    "(a conversation with the workspace is open: no stage comes)",
    pauseLadderClock,
  ),
  "billing:resume-clock": actOnWorkspace("(later stages move by the paused time)", resumeLadderClock),
  "billing:show": {
    summary: "--workspace ID   (stage, dates of the next stages, plan, allowance, invoices)",
    options: { workspace: string },
    required: ["workspace"],
    run: async (ctx, v) => billingJson(await getBillingOrThrow(ctx, systemActor("admin-cli", v.workspace as string))),
  },
};

/** --workspace ID: acts on the workspace's billing, then answers what billing:show would. */
function actOnWorkspace(note: string, act: (ctx: Ctx, workspaceId: string) => Promise<unknown>): AdminCommand {
  return {
    summary: `--workspace ID   ${note}`,
    options: { workspace: string },
    required: ["workspace"],
    run: async (ctx, v) => {
      await act(ctx, v.workspace as string);
      return billingJson(await getBillingOrThrow(ctx, systemActor("admin-cli", v.workspace as string)));
    },
  };
}
