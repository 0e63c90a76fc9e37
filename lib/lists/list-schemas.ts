import { z } from "zod";

import { nameField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

/** The workspace is the actor's, never a field of the input. */
export const createListSchema = z.strictObject({
  brandId: z.string(),
  name: nameField,
  description: z.string().trim().max(1000).default(""),
});
export type CreateListInput = z.input<typeof createListSchema>;

/** A list's own fields; its brand and members stay. */
export const updateListSchema = z.strictObject({
  name: nameField.optional(),
  description: z.string().trim().max(1000).optional(),
});
export type UpdateListInput = z.input<typeof updateListSchema>;
