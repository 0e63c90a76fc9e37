import type { BillingStage } from "@/lib/db/schema";

/**
 * Billing is how a workspace the ladder stopped gets going again, so it goes on in every stage but
 * deleted: deleted is final, and a deleted workspace chooses no plan and is sent no invoice.
 */
export function billingContinues(stage: BillingStage): boolean {
  return stage !== "deleted";
}

/** Only a plan that is running can be cancelled: an active workspace's, not cancelled already. */
export function canCancelPlan(billing: {
  plan: string | { id: string } | null;
  cancelAtPeriodEnd: boolean;
  stage: BillingStage;
}): boolean {
  return billing.plan !== null && !billing.cancelAtPeriodEnd && billing.stage === "active";
}
