import type { CARRIER_STATUSES, DomainState } from "@/lib/db/schema";

type CarrierStatus = (typeof CARRIER_STATUSES)[number];

/**
 * Where a check leaves a domain. Until every required record is published it is pending, or
 * records_missing once it had been verified; published, the carrier's registration decides.
 */
export function domainStateAfterCheck(check: {
  published: boolean;
  everVerified: boolean;
  carrierStatus: CarrierStatus;
}): DomainState {
  if (!check.published) return check.everVerified ? "records_missing" : "pending";
  if (check.carrierStatus === "registered") return "ready";
  return check.carrierStatus === "failed" ? "registration_failed" : "verified";
}

/** Re-sync repeats the registration with the carrier, which a check asks for only once the records are published. */
export function canResync(state: DomainState): boolean {
  return state === "verified" || state === "registration_failed" || state === "ready";
}

/** What a state asks of the sender: nothing (ready), patience (DNS or the carrier is pending), or a fix. */
export type DomainStanding = "ready" | "waiting" | "needs_fix";

export function domainStanding(state: DomainState): DomainStanding {
  if (state === "ready") return "ready";
  return state === "pending" || state === "verified" ? "waiting" : "needs_fix";
}
