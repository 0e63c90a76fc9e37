// No I/O and no server-only.

/**
 * The deliverability rates a warm-up day must hold to advance the schedule, with the defaults of the
 * sending guardrails: complaints below 0.3 % and hard bounces below 5 % of the mail delivered, judged
 * only once 500 were delivered (fewer say too little either way, so such a day holds).
 */
export const WARM_UP_RATE_LIMITS = { complaintRate: 0.003, hardBounceRate: 0.05, minimumDelivered: 500 } as const;

export interface DayDeliverability {
  delivered: number;
  complained: number;
  hardBounced: number;
}

/** Whether a day's mail held the rates: the one place warm-up asks, so it can follow the shared thresholds. */
export function heldDeliverabilityRates(day: DayDeliverability, limits = WARM_UP_RATE_LIMITS): boolean {
  if (day.delivered < limits.minimumDelivered) return true;
  return (
    day.complained / day.delivered < limits.complaintRate && day.hardBounced / day.delivered < limits.hardBounceRate
  );
}
