import { z } from "zod";

import { timeZoneField } from "@/lib/contacts/time-zone-field";

/** The workspace's time zone: what a campaign sent at a local time uses for contacts without one. */
export const workspaceTimeZoneSchema = z.strictObject({ timeZone: timeZoneField });
export type WorkspaceTimeZoneInput = z.input<typeof workspaceTimeZoneSchema>;
