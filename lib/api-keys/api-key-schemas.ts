import { z } from "zod";

import { originField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.
// The enums repeat the api_keys columns' (lib/db/schema/api-keys.ts), which browser code cannot import;
// the insert in create-api-key.ts type-checks them against the columns.

/** The workspace is the actor's, never a field of the input. */
export const createApiKeySchema = z.strictObject({
  kind: z.enum(["secret", "publishable"]),
  environment: z.enum(["live", "test"]),
  brandId: z.string().optional(),
  origins: z.array(originField).max(50).default([]),
  name: z.string().trim().max(200).default(""),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;
