import type { LadderCause } from "@/lib/db/schema";

/** "3 March 2027": the dates in the ladder's mail and on the billing screen. */
export function formatLadderDate(date: Date): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    date,
  );
}

const WHY: Record<LadderCause, string> = {
  payment_failed: "the invoice is still unpaid",
  cancelled: "the plan was cancelled and its paid period has ended",
  trial_ended: "the trial has ended and no plan was chosen",
};

/**
 * The mail of each ladder step, to the workspace's owners. `nextAt` is when the next stage falls
 * (the deletion, for the notice and its reminders).
 */
export function ladderMail(
  step: string,
  cause: LadderCause,
  workspaceName: string,
  nextAt: Date | null,
): { subject: string; text: string } {
  const next = nextAt ? formatLadderDate(nextAt) : "";
  const settle = cause === "payment_failed" ? "Settle the invoice" : "Choose a plan";
  if (step === "overdue") {
    return {
      subject: `Payment failed for ${workspaceName}: sending is paused`,
      text: `The payment for ${workspaceName} failed, so its campaigns are paused. Sign-in, reports and contact export keep working.\n\nWe keep trying to collect it. ${settle} before ${next} to resume sending at once; from ${next} the workspace is read-only.`,
    };
  }
  if (step === "read_only") {
    return {
      subject: `${workspaceName} is now read-only`,
      text: `${workspaceName} is read-only because ${WHY[cause]}. Nothing is sent and nothing can be changed; sign-in, reports and contact export keep working, and your data is intact.\n\n${settle} to make it active again. If nothing changes, its deletion will be scheduled on ${next}.`,
    };
  }
  if (step === "deletion_scheduled" || step.startsWith("reminder_")) {
    const reminder = step !== "deletion_scheduled";
    return {
      subject: `${reminder ? "Reminder: " : ""}${workspaceName} will be deleted on ${next}`,
      text: `${workspaceName} will be deleted on ${next} because ${WHY[cause]}. Its contacts, lists, topics, campaigns, templates, reports and images will be removed; invoices and payment history are kept.\n\nUntil then, contact export keeps working. ${settle} before ${next} to keep the workspace.`,
    };
  }
  return {
    subject: `${workspaceName} was deleted`,
    text: `${workspaceName} was deleted because ${WHY[cause]}: its contacts, lists, topics, campaigns, templates, reports and images are gone. Invoices and payment history are kept and can still be read in the dashboard.\n\nA new workspace starts empty.`,
  };
}
