import type { BillingOverview } from "./get-billing";
import { formatLadderDate } from "./ladder-mail";

const STAGE_NAMES: Record<string, string> = {
  overdue: "sending paused",
  read_only: "read-only",
  deletion_scheduled: "deletion scheduled",
  deleted: "deleted",
};

/**
 * The stage in plain words, with the date of the next one: "Sending paused since 3 March 2027;
 * read-only from 10 March 2027." Null for a workspace that is simply active or on a trial with nothing ahead.
 */
export function billingStatusLine(
  billing: Pick<
    BillingOverview,
    "stage" | "stageEnteredAt" | "upcoming" | "trialEndsAt" | "clockPausedSince" | "cancelAtPeriodEnd" | "paidThrough"
  >,
  now: Date,
): string | null {
  const since = formatLadderDate(billing.stageEnteredAt);
  const next = billing.upcoming[0];
  const then = next
    ? ` ${next.stage === "deleted" ? "Deletion on" : `${capitalise(STAGE_NAMES[next.stage] ?? next.stage)} from`} ${formatLadderDate(next.at)}.`
    : "";
  const paused = billing.clockPausedSince ? " These dates are on hold while we talk with you." : "";
  switch (billing.stage) {
    case "overdue":
      return `Sending paused since ${since}: the last payment failed.${then}${paused}`;
    case "read_only":
      return `Read-only since ${since}: nothing is sent or changed; reports and contact export keep working.${then}${paused}`;
    case "deletion_scheduled":
      return `Deletion scheduled since ${since}: contact export still works.${then}${paused}`;
    case "deleted":
      return `Deleted on ${since}. Invoices and payment history are kept below.`;
    case "trial": {
      if (!billing.trialEndsAt) return null;
      const days = Math.max(0, Math.ceil((billing.trialEndsAt.getTime() - now.getTime()) / 86_400_000));
      return `Trial: ${days} ${days === 1 ? "day" : "days"} left, until ${formatLadderDate(billing.trialEndsAt)}.`;
    }
    case "active":
      return billing.cancelAtPeriodEnd && billing.paidThrough
        ? `Cancelled: the plan ends on ${formatLadderDate(billing.paidThrough)}.${then}`
        : null;
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
