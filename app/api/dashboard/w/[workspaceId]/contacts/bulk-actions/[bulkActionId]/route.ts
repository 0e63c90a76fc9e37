import { z } from "zod";

import type { BulkActionView } from "@/lib/contacts/bulk-action-view";
import { bulkActionView, getBulkActionOrThrow } from "@/lib/contacts/contact-bulk-actions";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";

/** How far a bulk action on contacts got (its progress bar polls this). */
export const GET = dashboardRead(z.strictObject({}), async ({ ctx, actor, params }): Promise<BulkActionView> =>
  bulkActionView(await getBulkActionOrThrow(ctx, actor, params.bulkActionId ?? "")),
);
