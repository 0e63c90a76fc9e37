import { z } from "zod";

import type { OverviewCounts } from "@/lib/dashboard/dashboard-reads";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";
import { getWorkspaceOverviewOrThrow } from "@/lib/workspaces/get-workspace-overview";

/** The overview's figures, which the page refreshes while it is open. */
export const GET = dashboardRead(
  z.strictObject({}),
  async ({ ctx, actor }): Promise<OverviewCounts> => (await getWorkspaceOverviewOrThrow(ctx, actor)).counts,
);
