// No I/O and no server-only.

import type { HarmCounts } from "@/lib/db/schema/deliverability";
import { DEFAULT_GUARDRAIL_THRESHOLDS, type GuardrailThresholds } from "@/lib/deliverability/guardrail-schemas";
import { judgeHealth } from "@/lib/deliverability/judge-health";

export type DayDeliverability = HarmCounts;

/**
 * Whether a warm-up day's mail held the rates, so the schedule may advance: what would not have made
 * the guardrail stop a campaign (judge-health.ts) under the workspace's thresholds — by default
 * complaints below 0.3 % and hard bounces below 5 % of the mail delivered, judged only once 500 were
 * delivered (fewer say too little either way, so such a day holds).
 */
export function heldDeliverabilityRates(
  day: DayDeliverability,
  thresholds: GuardrailThresholds = DEFAULT_GUARDRAIL_THRESHOLDS,
): boolean {
  return judgeHealth(day, thresholds).verdict !== "stop";
}
