import { OctagonPause, TriangleAlert } from "lucide-react";
import Link from "next/link";

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { CampaignStatus } from "@/lib/db/schema";
import { guardrailStanding, type CampaignHealthView } from "@/lib/deliverability/campaign-health-view";
import { percentText, REASON_WORDS } from "@/lib/deliverability/judge-health";

export interface CampaignAtRiskView {
  campaign: { id: string; name: string; status: CampaignStatus };
  health: CampaignHealthView;
}

/** The overview's list of campaigns the guardrail warns about or paused, each linking to its page. */
export function CampaignsAtRiskCard({
  workspaceId,
  campaigns,
  className,
}: {
  workspaceId: string;
  campaigns: CampaignAtRiskView[];
  className?: string;
}) {
  if (campaigns.length === 0) return null;
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Complaints and bounces</CardTitle>
        <CardDescription>
          Campaigns past a warning threshold, and those the guardrail paused until a person resumes them.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          {campaigns.map(({ campaign, health }) => {
            const paused = guardrailStanding(campaign.status, health) === "paused";
            const reason = paused ? health.pausedBy!.reason : health.reason;
            const scope = paused ? health.pausedBy!.scope : health.scope;
            const figures = scope === "brand" ? health.brand : health.campaign;
            const rate =
              reason === "complaint_rate" ? figures.judgement.complaintRate : figures.judgement.hardBounceRate;
            return (
              <li key={campaign.id} className="flex gap-3">
                {paused ? (
                  <OctagonPause className="mt-0.5 size-5 shrink-0 text-destructive" aria-label="Paused" />
                ) : (
                  <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-label="Warning" />
                )}
                <div className="grid min-w-0 gap-0.5">
                  <Link
                    href={`/w/${workspaceId}/campaigns/${campaign.id}`}
                    className="font-medium break-words text-primary hover:underline"
                  >
                    {campaign.name}
                  </Link>
                  <span className="text-sm text-muted-foreground">
                    {paused ? "Paused by the guardrail: " : "Still sending, warned: "}
                    {scope === "brand" ? "its brand's " : ""}
                    {reason ? REASON_WORDS[reason] : "rate"}
                    {rate !== null ? ` ${percentText(rate)}` : ""}
                    {paused ? ". A person resumes it from its page." : "."}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
