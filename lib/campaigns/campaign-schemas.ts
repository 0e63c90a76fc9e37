import { z } from "zod";

import { nameField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

/** A campaign's content and audience, as created and as edited. The workspace is the actor's, never a field of the input. */
export const campaignSchema = z.strictObject({
  brandId: z.string(),
  topicId: z.string(),
  listId: z.string().nullish(),
  name: nameField,
  subject: z.string().trim().min(1, "must not be empty").max(998),
  previewText: z.string().trim().max(250).nullish(),
  html: z
    .string()
    .min(1, "must not be empty")
    .max(2 * 1024 * 1024),
  text: z
    .string()
    .max(2 * 1024 * 1024)
    .nullish(),
  /** Sent to contacts the workspace's sunset counts as inactive too (docs/readings.md); left out, false. */
  includeInactive: z.boolean().optional(),
});

/** A body written in the block editor: its document, from which the HTML and text parts are rendered. */
export const documentField = z.record(z.string(), z.unknown());
export type CampaignInput = z.input<typeof campaignSchema>;
