import type { CampaignStatus } from "@/lib/db/schema";
import type { GuardrailReason, GuardrailScope, HarmCounts } from "@/lib/db/schema/deliverability";

import type { CampaignHealth } from "./campaign-health";
import type { GuardrailThresholds } from "./guardrail-schemas";
import type { Judgement, Verdict } from "./judge-health";

/** What the dashboard shows of a campaign's health: plain data, for server and client components alike. */
export interface CampaignHealthView {
  thresholds: GuardrailThresholds;
  campaign: { judged: HarmCounts; judgement: Judgement };
  brand: { judged: HarmCounts; judgement: Judgement };
  verdict: Verdict;
  reason: GuardrailReason | null;
  scope: GuardrailScope | null;
  /** The figures count the mail since a person resumed it after a guardrail pause. */
  sinceResume: boolean;
  pausedBy: { reason: GuardrailReason; scope: GuardrailScope } | null;
}

export function campaignHealthView(health: CampaignHealth): CampaignHealthView {
  return {
    thresholds: health.thresholds,
    campaign: { judged: health.campaign.judged, judgement: health.campaign.judgement },
    brand: { judged: health.brand.judged, judgement: health.brand.judgement },
    verdict: health.verdict,
    reason: health.reason,
    scope: health.scope,
    sinceResume: health.acknowledgedAt !== null,
    pausedBy: health.pausedBy && { reason: health.pausedBy.reason, scope: health.pausedBy.scope },
  };
}

/**
 * What the guardrail has to say of a campaign in this status (docs/readings.md, "Guardrails: pausing
 * on harm"): `paused` while it stands paused by the guardrail (a person resumes it with the figures),
 * `warned` while it sends past a warning threshold, else nothing.
 */
export function guardrailStanding(status: CampaignStatus, health: CampaignHealthView): "paused" | "warned" | null {
  if (status === "paused" && health.pausedBy) return "paused";
  if (status === "sending" && health.verdict !== "ok" && health.reason) return "warned";
  return null;
}
