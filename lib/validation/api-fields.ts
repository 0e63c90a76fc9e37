import { z } from "zod";

import { isValidDomain } from "@/lib/contacts/email-address";

/** Custom attributes: at most 50 keys; each is checked against the workspace's definitions later. */
export const attributesField = z
  .record(z.string(), z.unknown())
  .refine((value) => Object.keys(value).length <= 50, "at most 50 attributes");

/** A bare hostname such as `example.com`, lower-cased. */
export const domainField = z
  .string()
  .trim()
  .max(255)
  .transform((value) => value.normalize("NFC").toLowerCase())
  .refine(isValidDomain, "must be a bare hostname such as example.com");

export const idField = z.string().min(1).max(100);

/** A timestamp as the API prints it: ISO 8601 UTC with milliseconds. */
export const timestampField = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  .meta({ format: "date-time", description: "ISO 8601 UTC with milliseconds." });
