import { z } from "zod";

import { dashboardCsvDownload } from "@/lib/dashboard/dashboard-route";
import { refusedRowsCsv } from "@/lib/imports/refused-rows-csv";

/** The rows an import refused, as CSV, with the reason for each. */
export const GET = dashboardCsvDownload(z.strictObject({}), async ({ ctx, actor, params }) => ({
  fileName: `refused-rows-${params.importId}.csv`,
  chunks: refusedRowsCsv(ctx, actor, params.importId ?? ""),
}));
