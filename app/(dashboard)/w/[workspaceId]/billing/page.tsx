import type { Metadata } from "next";

import { BillingControls, type PlanOffer } from "@/components/billing/billing-controls";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { managesBilling } from "@/lib/billing/billing-managers";
import { billingContinues, canCancelPlan } from "@/lib/billing/billing-stage";
import { billingStatusLine } from "@/lib/billing/billing-status-line";
import { getBillingOrThrow, type Invoice } from "@/lib/billing/get-billing";
import { formatLadderDate } from "@/lib/billing/ladder-mail";
import { formatMoney, PLANS, type Currency } from "@/lib/billing/plans";
import { stripeConfig } from "@/lib/billing/stripe/stripe-config";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { cancelPlanAction, choosePlanAction, paymentPortalAction } from "./actions";

export const metadata: Metadata = { title: "Billing" };

const STAGE_BADGES: Record<string, { label: string; variant: "success" | "warning" | "destructive" | "secondary" }> = {
  trial: { label: "Trial", variant: "secondary" },
  active: { label: "Active", variant: "success" },
  overdue: { label: "Payment overdue", variant: "warning" },
  read_only: { label: "Read-only", variant: "destructive" },
  deletion_scheduled: { label: "Deletion scheduled", variant: "destructive" },
  deleted: { label: "Deleted", variant: "destructive" },
};

const INVOICE_BADGES: Record<
  Invoice["status"],
  { label: string; variant: "success" | "warning" | "destructive" | "secondary" }
> = {
  open: { label: "Open", variant: "secondary" },
  paid: { label: "Paid", variant: "success" },
  failed: { label: "Payment failed", variant: "destructive" },
  void: { label: "Void", variant: "secondary" },
};

/** The id's last characters, as a number a person can quote to the service's team. */
const invoiceNumber = (id: string) => id.slice(-8).toUpperCase();

const STAGE_NAMES: Record<string, string> = {
  read_only: "Read-only",
  deletion_scheduled: "Deletion scheduled",
  deleted: "Deleted",
  overdue: "Sending paused",
};

export default async function BillingPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor, workspace } = await getWorkspaceSession(workspaceId);
  const billing = await getBillingOrThrow(ctx, actor);
  const now = ctx.clock.now();
  const currency = billing.currency as Currency;
  const stripe = stripeConfig() !== null;
  const plans: PlanOffer[] = PLANS.map((plan) => ({
    id: plan.id,
    name: plan.name,
    sends: plan.sendAllowance.toLocaleString("en"),
    price: formatMoney(plan.price[currency], currency),
  }));
  const status = billingStatusLine(billing, now);
  const used =
    billing.sendAllowance > 0 ? Math.min(100, Math.round((billing.sendsUsed / billing.sendAllowance) * 100)) : 100;
  const manages = managesBilling(workspace.role);
  const badge = STAGE_BADGES[billing.stage]!;
  const unpaid = billing.invoices.filter((invoice) => invoice.status === "open" || invoice.status === "failed").length;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Billing" }]}
        title="Billing"
        description={`Your plan, what you have sent this period, and your invoices. Billed in ${currency.toUpperCase()}, fixed when the workspace was created.`}
        actions={
          manages && billingContinues(billing.stage) ? (
            <BillingControls
              workspaceId={workspaceId}
              plans={plans}
              currentPlan={billing.plan?.id ?? null}
              stripe={stripe}
              canCancel={canCancelPlan(billing)}
              paidThrough={billing.paidThrough ? formatLadderDate(billing.paidThrough) : null}
              actions={{ choose: choosePlanAction, portal: paymentPortalAction, cancel: cancelPlanAction }}
            />
          ) : undefined
        }
      />
      <div className="grid gap-6">
        <div className="grid gap-6 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                {billing.plan?.name ?? (billing.stage === "trial" ? "Free trial" : "No plan")}{" "}
                <Badge variant={badge.variant}>{badge.label}</Badge>
              </CardTitle>
              <CardDescription data-testid="billing-status">
                {status ??
                  (billing.paidThrough
                    ? `Paid through ${formatLadderDate(billing.paidThrough)}.`
                    : "Choose a plan to keep sending.")}
              </CardDescription>
            </CardHeader>
            {billing.stage === "trial" && (
              <CardContent className="text-sm text-muted-foreground">
                When the trial ends the workspace becomes read-only until a plan is chosen: nothing is sent, and your
                contacts, reports and exports stay. Plans start at {plans[0]!.price} a month.
              </CardContent>
            )}
            {billing.pendingPlan && billingContinues(billing.stage) && (
              <CardContent className="text-sm text-muted-foreground" data-testid="billing-pending-plan">
                Moving to {billing.pendingPlan.name}: its {billing.pendingPlan.sendAllowance.toLocaleString("en")} sends
                a month apply once the invoice for the change is paid. Until then the current allowance applies.
              </CardContent>
            )}
            {!stripe && unpaid > 0 && billingContinues(billing.stage) && (
              <CardContent className="text-sm text-muted-foreground">
                {unpaid === 1 ? "An invoice is" : `${unpaid} invoices are`} waiting for payment. Pay as agreed with the
                service&apos;s team and quote the invoice number; the workspace is active again the moment the payment
                is recorded.
              </CardContent>
            )}
            {billing.upcoming.length > 0 && (
              <CardContent>
                <p className="mb-2 text-sm font-medium">What happens next</p>
                <ol className="grid gap-1 text-sm text-muted-foreground" aria-label="Next stages">
                  {billing.upcoming.map((next) => (
                    <li key={next.stage}>
                      {formatLadderDate(next.at)}: {STAGE_NAMES[next.stage] ?? next.stage}
                    </li>
                  ))}
                </ol>
              </CardContent>
            )}
          </Card>
          {billingContinues(billing.stage) && (
            <Card>
              <CardHeader>
                <CardTitle>Sends this period</CardTitle>
                <CardDescription>
                  Since {formatLadderDate(billing.periodStartedAt)}
                  {billing.stage === "trial" && billing.trialEndsAt
                    ? `; the trial ends on ${formatLadderDate(billing.trialEndsAt)}`
                    : ""}
                  .
                </CardDescription>
              </CardHeader>
              <CardContent className="grid gap-2">
                <div
                  className="h-2 overflow-hidden rounded-full bg-muted"
                  role="progressbar"
                  aria-label="Allowance used"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={used}
                >
                  <div
                    className={used >= 90 ? "h-full bg-amber-500" : "h-full bg-primary"}
                    style={{ width: `${used}%` }}
                  />
                </div>
                <p className="text-sm text-muted-foreground">
                  <span className="font-medium text-foreground">{billing.sendsUsed.toLocaleString("en")}</span> of{" "}
                  {billing.sendAllowance.toLocaleString("en")} sends used. Recipients past the allowance are not sent
                  to.
                </p>
              </CardContent>
            </Card>
          )}
        </div>
        <section className="grid gap-3" aria-labelledby="invoices-heading">
          <h2 id="invoices-heading" className="text-lg font-semibold tracking-tight">
            Invoices
          </h2>
          {billing.invoices.length === 0 ? (
            <EmptyState title="No invoices yet">
              {billing.stage === "trial"
                ? "Your first invoice comes when you choose a plan."
                : "Invoices appear here once a plan is chosen."}
            </EmptyState>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Issued</TableHead>
                  <TableHead>Period</TableHead>
                  <TableHead>Plan</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>
                    <span className="sr-only">Invoice</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {billing.invoices.map((invoice) => (
                  <TableRow key={invoice.id} data-testid={`invoice-${invoice.id}`}>
                    <TableCell>{formatLadderDate(invoice.createdAt)}</TableCell>
                    <TableCell className="text-muted-foreground">
                      {formatLadderDate(invoice.periodStart)} – {formatLadderDate(invoice.periodEnd)}
                    </TableCell>
                    <TableCell>{PLANS.find((plan) => plan.id === invoice.plan)?.name ?? "—"}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatMoney(invoice.amount, invoice.currency)}
                    </TableCell>
                    <TableCell>
                      <Badge variant={INVOICE_BADGES[invoice.status].variant}>
                        {INVOICE_BADGES[invoice.status].label}
                      </Badge>
                      {invoice.status === "open" && (
                        <span className="ml-2 text-xs text-muted-foreground">
                          due {formatLadderDate(invoice.dueAt)}
                        </span>
                      )}
                    </TableCell>
                    <TableCell className="text-right">
                      {invoice.hostedUrl ? (
                        <a
                          href={invoice.hostedUrl}
                          className="text-sm text-primary hover:underline"
                          target="_blank"
                          rel="noreferrer"
                        >
                          View invoice
                        </a>
                      ) : (
                        <span className="text-xs text-muted-foreground">No. {invoiceNumber(invoice.id)}</span>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </section>
      </div>
    </>
  );
}
