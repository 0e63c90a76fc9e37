import type { CampaignStatus } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

/** docs/readings.md, "Campaign statuses": the only moves a campaign makes. */
const TRANSITIONS: Record<CampaignStatus, CampaignStatus[]> = {
  draft: ["scheduled", "sending"],
  scheduled: ["draft", "sending", "cancelled"],
  sending: ["paused", "sent", "cancelled"],
  paused: ["sending", "cancelled"],
  sent: [],
  cancelled: [],
};

export function canMove(from: CampaignStatus, to: CampaignStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertCanMove(from: CampaignStatus, to: CampaignStatus): void {
  if (!canMove(from, to)) {
    throw new ApiError({
      type: "invalid_request_error",
      code: "invalid_campaign_transition",
      param: "status",
      message: `A ${from} campaign cannot become ${to}.`,
    });
  }
}

/** A campaign's content and audience can change only before it starts sending: as a draft or while scheduled. */
export function canEdit(status: CampaignStatus): boolean {
  return status === "draft" || status === "scheduled";
}
