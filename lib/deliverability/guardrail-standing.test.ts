import { describe, expect, it } from "vitest";

import { guardrailStanding, type CampaignHealthView } from "./campaign-health-view";
import { DEFAULT_GUARDRAIL_THRESHOLDS } from "./guardrail-schemas";

const zero = { delivered: 0, complained: 0, hardBounced: 0 };
const ok = { verdict: "ok" as const, reason: null, complaintRate: null, hardBounceRate: null };
const health = (changes: Partial<CampaignHealthView>): CampaignHealthView => ({
  thresholds: DEFAULT_GUARDRAIL_THRESHOLDS,
  campaign: { judged: zero, judgement: ok },
  brand: { judged: zero, judgement: ok },
  verdict: "ok",
  reason: null,
  scope: null,
  sinceResume: false,
  pausedBy: null,
  ...changes,
});

describe("guardrail standing on the campaign page and the overview", () => {
  it("paused by the guardrail only while it stands paused with the guardrail's reason; warned only while sending", () => {
    const pausedBy = { reason: "complaint_rate" as const, scope: "campaign" as const };
    const warned = { verdict: "warn" as const, reason: "complaint_rate" as const, scope: "campaign" as const };
    expect(guardrailStanding("paused", health({ pausedBy }))).toBe("paused");
    // A person's own pause, or a campaign resumed since: the guardrail has nothing to say of the pause.
    expect(guardrailStanding("paused", health({}))).toBeNull();
    expect(guardrailStanding("sending", health({ pausedBy }))).toBeNull();
    expect(guardrailStanding("sending", health(warned))).toBe("warned");
    expect(guardrailStanding("sent", health(warned))).toBeNull();
    expect(guardrailStanding("sending", health({}))).toBeNull();
  });
});
