import { z } from "zod";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

/**
 * A member unsubscribing a contact for them: from one topic, or from everything (`topicId` null).
 * The note says how the person asked; it is required, because the opt-out is then the sender's
 * word, not the person's own click.
 */
export const unsubscribeOnBehalfSchema = z.strictObject({
  contactId: z.string(),
  topicId: z.string().min(1).nullable(),
  note: z
    .string()
    .trim()
    .min(1, "say how the person asked, for example “asked by phone”")
    .max(500, "must be at most 500 characters"),
});
export type UnsubscribeOnBehalfInput = z.input<typeof unsubscribeOnBehalfSchema>;
