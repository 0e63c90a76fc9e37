import { TriangleAlert } from "lucide-react";
import Link from "next/link";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { billingAllowsSending } from "@/lib/billing/billing-allows-sending";
import { billingContinues } from "@/lib/billing/billing-stage";
import { billingStatusLine } from "@/lib/billing/billing-status-line";
import type { BillingOverview } from "@/lib/billing/get-billing";

const TITLES: Record<string, string> = {
  overdue: "Sending is paused",
  read_only: "This workspace is read-only",
  deletion_scheduled: "This workspace will be deleted",
  deleted: "This workspace was deleted",
  trial: "The trial has ended",
};

/** On every screen of a workspace that cannot send: what happened, what comes next, and where to fix it. */
export function BillingBanner({ billing, now }: { billing: Omit<BillingOverview, "invoices">; now: Date }) {
  if (billingAllowsSending(billing, now)) return null;
  const line = billingStatusLine(billing, now);
  return (
    <Alert
      variant={billing.stage === "overdue" ? "warning" : "destructive"}
      className="mb-6"
      data-testid="billing-banner"
    >
      <TriangleAlert aria-hidden />
      <AlertTitle>{TITLES[billing.stage] ?? "Billing needs attention"}</AlertTitle>
      <AlertDescription>
        <p>
          {line ?? "Choose a plan to start sending."}{" "}
          {billingContinues(billing.stage) && (
            <Link
              href={`/w/${billing.workspaceId}/billing`}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {billing.stage === "overdue" ? "Settle the invoice" : "Open billing"}
            </Link>
          )}
        </p>
      </AlertDescription>
    </Alert>
  );
}
