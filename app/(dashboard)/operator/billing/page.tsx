import type { Metadata } from "next";
import Link from "next/link";

import { IssueInvoiceButton } from "@/components/operator/billing-account-controls";
import { OperatorStepButton } from "@/components/operator/operator-step-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { billingContinues, canCancelPlan } from "@/lib/billing/billing-stage";
import { formatLadderDate } from "@/lib/billing/ladder-mail";
import { formatMoney, PLANS } from "@/lib/billing/plans";
import { defaultCtx } from "@/lib/context";
import { listBillingAccounts } from "@/lib/operator/billing-accounts";
import { requireOperator } from "@/lib/operator/operator-session";

import {
  cancelPlanAction,
  issueInvoiceAction,
  pauseClockAction,
  paymentFailedAction,
  resumeClockAction,
  settleInvoiceAction,
} from "./actions";

export const metadata: Metadata = { title: "Billing (operator)" };

const planOptions = PLANS.map((plan) => ({ value: plan.id, label: plan.name }));

/** The manual billing provider: the service's operators invoice workspaces and record what was paid. */
export default async function OperatorBillingPage() {
  const operator = await requireOperator();
  const accounts = await listBillingAccounts(defaultCtx());
  return (
    <main className="mx-auto grid max-w-6xl gap-6 px-6 py-8">
      <PageHeader
        crumbs={[{ label: "Reviews", href: "/operator" }, { label: "Billing" }]}
        title="Billing"
        description={`Signed in as ${operator.email}. Invoice workspaces, record payments and failed collections, and hold the ladder's clock while you talk with a customer. Workspaces paying through Stripe are settled by Stripe.`}
        actions={
          <Button asChild variant="outline">
            <Link href="/operator">Reviews</Link>
          </Button>
        }
      />
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Workspace</TableHead>
            <TableHead>Stage</TableHead>
            <TableHead>Unpaid invoices</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {accounts.map((account) => (
            <TableRow key={account.workspaceId} data-testid={`billing-account-${account.workspaceId}`}>
              <TableCell className="align-top">
                <div className="font-medium">{account.name}</div>
                <div className="text-xs text-muted-foreground">
                  {account.plan ? (PLANS.find((plan) => plan.id === account.plan)?.name ?? account.plan) : "no plan"} ·{" "}
                  {account.currency.toUpperCase()} · {account.provider}
                  {account.paidThrough && <> · paid through {formatLadderDate(account.paidThrough)}</>}
                </div>
              </TableCell>
              <TableCell className="align-top">
                <Badge variant={["active", "trial"].includes(account.stage) ? "secondary" : "destructive"}>
                  {account.stage.replaceAll("_", " ")}
                </Badge>
                {account.clockPausedSince && (
                  <div className="mt-1 text-xs text-muted-foreground">
                    clock paused since {formatLadderDate(account.clockPausedSince)}
                  </div>
                )}
                {account.cancelAtPeriodEnd && (
                  <div className="mt-1 text-xs text-muted-foreground">cancelled at period end</div>
                )}
              </TableCell>
              <TableCell className="align-top">
                {account.unpaid.length === 0 && <span className="text-sm text-muted-foreground">none</span>}
                <ul className="grid gap-2">
                  {account.unpaid.map((invoice) => (
                    <li key={invoice.id} className="flex flex-wrap items-center gap-2 text-sm">
                      <span className="tabular-nums">{formatMoney(invoice.amount, account.currency)}</span>
                      {invoice.plan && (
                        <span className="text-muted-foreground">
                          {PLANS.find((plan) => plan.id === invoice.plan)?.name ?? invoice.plan}
                        </span>
                      )}
                      <Badge variant={invoice.status === "failed" ? "destructive" : "secondary"}>
                        {invoice.status === "failed"
                          ? "payment failed"
                          : `due ${formatLadderDate(new Date(invoice.dueAt))}`}
                      </Badge>
                      {account.provider === "manual" && (
                        <>
                          <OperatorStepButton
                            targetId={account.workspaceId}
                            input={{ invoiceId: invoice.id }}
                            action={settleInvoiceAction}
                            label="Record payment"
                            title={`Record the payment of ${formatMoney(invoice.amount, account.currency)}?`}
                            description="The invoice is paid. Once nothing else is owed, the workspace is active at once and its paused campaigns carry on."
                            done="Payment recorded."
                          />
                          {invoice.status === "open" && (
                            <OperatorStepButton
                              targetId={account.workspaceId}
                              input={{ invoiceId: invoice.id }}
                              action={paymentFailedAction}
                              label="Payment failed"
                              title="Record a failed payment?"
                              description="Sending pauses at the next batch and the ladder starts: read-only after a week, deletion about three months later. The owners are mailed at each step."
                              done="Failed payment recorded; sending is paused."
                              destructive
                            />
                          )}
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </TableCell>
              <TableCell className="align-top">
                <div className="flex flex-wrap justify-end gap-2">
                  {account.provider === "manual" && billingContinues(account.stage) && (
                    <IssueInvoiceButton
                      workspaceId={account.workspaceId}
                      name={account.name}
                      currency={account.currency}
                      plans={planOptions}
                      action={issueInvoiceAction}
                    />
                  )}
                  {account.clockPausedSince ? (
                    <OperatorStepButton
                      targetId={account.workspaceId}
                      input={{}}
                      action={resumeClockAction}
                      label="Resume clock"
                      title="Resume the ladder's clock?"
                      description="Every later stage moves later by the time the clock was paused."
                      done="Clock resumed."
                    />
                  ) : (
                    // The clock matters once the workspace is on its way down the ladder (or about to be).
                    (["overdue", "read_only", "deletion_scheduled"].includes(account.stage) ||
                      account.cancelAtPeriodEnd) && (
                      <OperatorStepButton
                        targetId={account.workspaceId}
                        input={{}}
                        action={pauseClockAction}
                        label="Pause clock"
                        title="Pause the ladder's clock?"
                        description="While you talk with this customer no stage comes: nothing becomes read-only or deleted until you resume."
                        done="Clock paused."
                      />
                    )
                  )}
                  {account.provider === "manual" && canCancelPlan(account) && (
                    <OperatorStepButton
                      targetId={account.workspaceId}
                      input={{}}
                      action={cancelPlanAction}
                      label="Cancel plan"
                      title="Cancel this workspace's plan?"
                      description="It stays active until the end of its paid period, then becomes read-only."
                      done="Plan cancelled from the end of the period."
                      destructive
                    />
                  )}
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </main>
  );
}
