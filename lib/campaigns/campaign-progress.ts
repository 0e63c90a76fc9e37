import type { CampaignStatus } from "@/lib/db/schema";

import type { CampaignCounts } from "./campaign-counts";

/** What the campaign page polls while a campaign is on its way. */
export interface CampaignProgress {
  status: CampaignStatus;
  /** Null until the audience snapshot is complete. */
  recipients: number | null;
  counts: CampaignCounts;
  /** The recipients not sent to, per failure reason, most first (not-sent-reasons.ts says which a rule left out). */
  notSent: { reason: string; count: number }[];
}

/** Statuses whose figures still move: the page keeps asking while the campaign is in one. */
export const MOVING_STATUSES: readonly CampaignStatus[] = ["scheduled", "sending"];
