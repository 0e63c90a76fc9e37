import { z } from "zod";

import type { ImportStatusView } from "@/lib/dashboard/dashboard-reads";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";
import { getImportRowOrThrow, importProgress } from "@/lib/imports/get-import";

/** How an import stands: its status, the apply's progress and its counts (the progress bar polls this). */
export const GET = dashboardRead(z.strictObject({}), async ({ ctx, actor, params }): Promise<ImportStatusView> => {
  const imp = await getImportRowOrThrow(ctx, actor, params.importId ?? "");
  return { status: imp.status, progress: importProgress(imp), checked: imp.checked, applied: imp.applied };
});
