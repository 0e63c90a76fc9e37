"use server";

import { z } from "zod";

import { systemActor } from "@/lib/actor";
import { invoiceOfWorkspace, issueInvoice, recordPaymentFailed, settleInvoice } from "@/lib/billing/invoices";
import { parseAmount } from "@/lib/billing/parse-amount";
import { cancelPlan, pauseLadderClock, resumeLadderClock } from "@/lib/billing/plan-changes";
import { PLANS } from "@/lib/billing/plans";
import { operatorAction } from "@/lib/operator/operator-action";

const planIds = PLANS.map((plan) => plan.id) as [string, ...string[]];

export const issueInvoiceAction = operatorAction(
  z.strictObject({
    amount: z.string().trim().min(1, "enter an amount"),
    plan: z.enum(["", ...planIds]),
    due: z.iso.date().or(z.literal("")),
  }),
  async (ctx, workspaceId, { amount, plan, due }) => {
    const invoice = await issueInvoice(ctx, {
      workspaceId,
      amount: parseAmount(amount),
      plan: plan || undefined,
      dueAt: due ? new Date(`${due}T23:59:59Z`) : undefined,
    });
    return { invoiceId: invoice.id };
  },
);

const invoiceInput = z.strictObject({ invoiceId: z.string().min(1) });

export const settleInvoiceAction = operatorAction(invoiceInput, async (ctx, workspaceId, { invoiceId }) => ({
  status: (await settleInvoice(ctx, await invoiceOfWorkspace(ctx, workspaceId, invoiceId))).status,
}));

export const paymentFailedAction = operatorAction(invoiceInput, async (ctx, workspaceId, { invoiceId }) => ({
  status: (await recordPaymentFailed(ctx, await invoiceOfWorkspace(ctx, workspaceId, invoiceId))).status,
}));

export const pauseClockAction = operatorAction(z.strictObject({}), (ctx, workspaceId) =>
  pauseLadderClock(ctx, workspaceId),
);

export const resumeClockAction = operatorAction(z.strictObject({}), (ctx, workspaceId) =>
  resumeLadderClock(ctx, workspaceId),
);

export const cancelPlanAction = operatorAction(z.strictObject({}), async (ctx, workspaceId) => {
  await cancelPlan(ctx, systemActor("operator", workspaceId));
});
