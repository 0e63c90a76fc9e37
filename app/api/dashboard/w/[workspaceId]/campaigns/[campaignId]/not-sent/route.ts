import { z } from "zod";

import { notSentCsv } from "@/lib/campaigns/not-sent-csv";
import { dashboardCsvDownload } from "@/lib/dashboard/dashboard-route";

/** Every recipient a campaign was not sent to, as CSV, with the reason for each. */
export const GET = dashboardCsvDownload(z.strictObject({}), async ({ ctx, actor, params }) => ({
  fileName: `not-sent-${params.campaignId}.csv`,
  chunks: notSentCsv(ctx, actor, params.campaignId ?? ""),
}));
