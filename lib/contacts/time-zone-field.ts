import { z } from "zod";

import { canonicalTimeZone } from "./time-zone";

/** An IANA time zone (time-zone.ts), stored as the zone database names it: `europe/berlin` → `Europe/Berlin`. */
export const timeZoneField = z
  .string()
  .trim()
  .max(64, "must be at most 64 characters")
  .refine((zone) => canonicalTimeZone(zone) !== null, "is not a time zone, such as Europe/Berlin")
  .transform((zone) => canonicalTimeZone(zone)!);
