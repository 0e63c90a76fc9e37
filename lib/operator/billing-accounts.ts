import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import type { BillingStage, InvoiceStatus } from "@/lib/db/schema";

export interface BillingAccount {
  workspaceId: string;
  name: string;
  stage: BillingStage;
  plan: string | null;
  currency: string;
  provider: "manual" | "stripe";
  clockPausedSince: Date | null;
  cancelAtPeriodEnd: boolean;
  paidThrough: Date | null;
  /** Invoices not yet paid (open or failed), oldest first. */
  unpaid: { id: string; amount: number; plan: string | null; status: InvoiceStatus; dueAt: string }[];
}

/**
 * Every workspace's billing, for the operator: those needing attention first (overdue and later, then
 * those with unpaid invoices), then by name.
 */
export async function listBillingAccounts(ctx: Ctx): Promise<BillingAccount[]> {
  const rows = await ctx.db.execute<
    Omit<BillingAccount, "clockPausedSince" | "paidThrough"> & {
      clockPausedSince: string | null;
      paidThrough: string | null;
      [key: string]: unknown;
    }
  >(sql`
    select w.id as "workspaceId", w.name, b.stage, b.plan, b.currency, b.provider,
           b.conversation_open_since as "clockPausedSince", b.cancel_at_period_end as "cancelAtPeriodEnd", b.paid_through as "paidThrough",
           coalesce((select json_agg(json_build_object('id', i.id, 'amount', i.amount, 'plan', i.plan, 'status', i.status, 'dueAt', i.due_at) order by i.created_at)
                     from billing_invoices i where i.workspace_id = w.id and i.status in ('open', 'failed')), '[]') as unpaid
    from workspaces w join workspace_billing b on b.workspace_id = w.id
    order by case b.stage when 'overdue' then 0 when 'read_only' then 1 when 'deletion_scheduled' then 2 else 3 end,
             exists (select 1 from billing_invoices i where i.workspace_id = w.id and i.status in ('open', 'failed')) desc,
             w.name
    limit 500`);
  return [...rows].map((row) => ({
    ...row,
    clockPausedSince: row.clockPausedSince ? new Date(row.clockPausedSince) : null,
    paidThrough: row.paidThrough ? new Date(row.paidThrough) : null,
  }));
}
