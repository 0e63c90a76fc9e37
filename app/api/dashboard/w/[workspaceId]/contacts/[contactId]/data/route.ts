import { z } from "zod";

import { exportContactData } from "@/lib/contacts/export-contact-data";
import { dashboardRead } from "@/lib/dashboard/dashboard-route";

// GET /api/dashboard/w/[workspaceId]/contacts/[contactId]/data — everything held about one contact, as a JSON file.
export const GET = dashboardRead(
  z.strictObject({}),
  ({ ctx, actor, params }) => exportContactData(ctx, actor, params.contactId!),
  { download: (params) => `contact-${params.contactId}.json` },
);
