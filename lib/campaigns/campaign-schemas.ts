import { z } from "zod";

import { nameField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

/** A campaign's content and audience, as created and as edited. The workspace is the actor's, never a field of the input. */
export const campaignSchema = z.strictObject({
  brandId: z.string(),
  topicId: z.string(),
  listId: z.string().nullish(),
  /** A segment narrowing the audience further: only whom it matches (`include`, the default) or all but them (`exclude`). */
  segmentId: z.string().nullish(),
  segmentMode: z.enum(["include", "exclude"]).nullish(),
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

/** The longest wait a resend to non-openers may be given: two weeks after the original went out. */
export const MAX_RESEND_WAIT_HOURS = 14 * 24;

/** "Send again to those who did not open": the new subject, and how long after the original to send it. */
export const resendToNonOpenersSchema = z.strictObject({
  subject: z.string().trim().min(1, "must not be empty").max(998),
  waitHours: z.coerce
    .number({ error: "give a number of hours" })
    .int("give a whole number of hours")
    .min(1, "wait at least 1 hour")
    .max(MAX_RESEND_WAIT_HOURS, `wait at most ${MAX_RESEND_WAIT_HOURS} hours`),
});
export type ResendToNonOpenersInput = z.input<typeof resendToNonOpenersSchema>;
