import { OctagonPause, TriangleAlert } from "lucide-react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import type { CampaignStatus } from "@/lib/db/schema";
import { guardrailStanding, type CampaignHealthView } from "@/lib/deliverability/campaign-health-view";
import { REASON_WORDS } from "@/lib/deliverability/judge-health";

import { HealthFigures } from "./health-figures";

/**
 * The campaign page's word from the guardrail: why it paused the campaign (the figures it stopped on,
 * and that a person resumes it), or that a sending campaign is past a warning threshold. Nothing when all is well.
 */
export function CampaignHealthAlert({ health, status }: { health: CampaignHealthView; status: CampaignStatus }) {
  const standing = guardrailStanding(status, health);
  if (standing === "paused" && health.pausedBy) {
    const whose = health.pausedBy.scope === "brand" ? "its brand's" : "its";
    return (
      <Alert variant="destructive">
        <OctagonPause />
        <AlertTitle>
          Paused by the guardrail: {whose} {REASON_WORDS[health.pausedBy.reason]} reached the stop threshold
        </AlertTitle>
        <AlertDescription className="grid gap-3">
          <p className="text-foreground">
            Nothing more goes out until a person resumes it. Before you do, look at why recipients complain or bounce
            (the audience, where the addresses came from, the content): resuming sends to the rest of the audience, and
            the guardrail then judges the mail sent after the resume.
          </p>
          <HealthFigures {...health} sinceResume={health.sinceResume} />
        </AlertDescription>
      </Alert>
    );
  }
  if (standing !== "warned" || !health.reason) return null;
  const whose = health.scope === "brand" ? "Its brand's" : "Its";
  return (
    <Alert variant="warning">
      <TriangleAlert />
      <AlertTitle>
        {whose} {REASON_WORDS[health.reason]} is past the warning threshold
      </AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>It keeps sending; at the stop threshold the guardrail pauses it.</p>
        <HealthFigures {...health} sinceResume={health.sinceResume} />
      </AlertDescription>
    </Alert>
  );
}
