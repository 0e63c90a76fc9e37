import type { workspaceBilling } from "@/lib/db/schema";

/** Sending happens on a trial that has not ended and on an active plan; every other stage pauses it. */
export function billingAllowsSending(
  billing: Pick<typeof workspaceBilling.$inferSelect, "stage" | "trialEndsAt">,
  now: Date,
): boolean {
  if (billing.stage === "active") return true;
  return billing.stage === "trial" && (!billing.trialEndsAt || billing.trialEndsAt > now);
}
