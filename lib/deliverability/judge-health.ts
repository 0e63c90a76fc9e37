import type { GuardrailReason, HarmCounts } from "@/lib/db/schema/deliverability";

import type { GuardrailThresholds } from "./guardrail-schemas";

// Pure: the campaign page, the overview and the guardrail itself ask this one predicate.

export type Verdict = "ok" | "warn" | "stop";

export interface Judgement {
  verdict: Verdict;
  /** The rate that decided a warn or stop; null when ok. */
  reason: GuardrailReason | null;
  /** Percentages of delivered mail; null below the minimum of delivered mail (too few to judge). */
  complaintRate: number | null;
  hardBounceRate: number | null;
}

const RANK: Record<Verdict, number> = { ok: 0, warn: 1, stop: 2 };

/**
 * docs/readings.md, "Guardrails: pausing on harm": a rate at or above its stop threshold stops,
 * at or above its warning threshold warns, both over delivered mail, and only once at least the
 * minimum of delivered mail is reached (a handful of mails says nothing about a list).
 */
export function judgeHealth(counts: HarmCounts, thresholds: GuardrailThresholds): Judgement {
  if (counts.delivered < thresholds.minimumDelivered || counts.delivered <= 0)
    return { verdict: "ok", reason: null, complaintRate: null, hardBounceRate: null };
  const complaintRate = (counts.complained / counts.delivered) * 100;
  const hardBounceRate = (counts.hardBounced / counts.delivered) * 100;
  const complaints = level(complaintRate, thresholds.complaintWarnPercent, thresholds.complaintStopPercent);
  const bounces = level(hardBounceRate, thresholds.hardBounceWarnPercent, thresholds.hardBounceStopPercent);
  const verdict = RANK[bounces] > RANK[complaints] ? bounces : complaints;
  const reason =
    verdict === "ok" ? null : complaints === verdict ? ("complaint_rate" as const) : ("hard_bounce_rate" as const);
  return { verdict, reason, complaintRate, hardBounceRate };
}

function level(rate: number, warn: number, stop: number): Verdict {
  return rate >= stop ? "stop" : rate >= warn ? "warn" : "ok";
}

/** The worse of two judgements, the first one on a tie. */
export function worse<T extends { verdict: Verdict }>(a: T, b: T): T {
  return RANK[b.verdict] > RANK[a.verdict] ? b : a;
}

/** Counts since an acknowledgement: what happened after a person resumed the campaign. */
export function countsSince(counts: HarmCounts, since: HarmCounts | null | undefined): HarmCounts {
  if (!since) return counts;
  return {
    delivered: Math.max(0, counts.delivered - since.delivered),
    complained: Math.max(0, counts.complained - since.complained),
    hardBounced: Math.max(0, counts.hardBounced - since.hardBounced),
  };
}

/** A rate as the dashboard shows it: two decimals and a percent sign. */
export function percentText(rate: number): string {
  return `${rate.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`;
}

export const REASON_WORDS: Record<GuardrailReason, string> = {
  complaint_rate: "complaint rate",
  hard_bounce_rate: "permanent-bounce rate",
};
