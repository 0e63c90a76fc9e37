import { z } from "zod";

import { getCampaignProgressOrThrow } from "@/lib/campaigns/get-campaign-progress";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";

/** A campaign's status and counts, polled by its page while it sends. */
export const GET = dashboardRead(z.strictObject({}), ({ ctx, actor, params }) =>
  getCampaignProgressOrThrow(ctx, actor, params.campaignId ?? ""),
);
