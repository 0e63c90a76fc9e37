import { z } from "zod";

import { nameField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

/** The workspace is the actor's, never a field of the input. */
export const createTopicSchema = z.strictObject({
  brandId: z.string(),
  name: nameField,
  description: z.string().trim().max(1000).default(""),
  requiresConfirmation: z.boolean().default(true),
});
export type CreateTopicInput = z.input<typeof createTopicSchema>;

/** A topic's own fields; its brand stays. */
export const updateTopicSchema = z.strictObject({
  name: nameField.optional(),
  description: z.string().trim().max(1000).optional(),
  requiresConfirmation: z.boolean().optional(),
});
export type UpdateTopicInput = z.input<typeof updateTopicSchema>;
