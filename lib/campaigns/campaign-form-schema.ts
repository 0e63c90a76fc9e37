import { z } from "zod";

import { campaignSchema, documentField } from "./campaign-schemas";

// A form's empty select or textarea means "none", which the campaign's own schema spells null.
const noneWhenEmpty = (value: unknown) => (value === "" ? null : value);

const fields = campaignSchema.extend({
  brandId: z.string().min(1, "choose a brand"),
  topicId: z.string().min(1, "choose a topic"),
  listId: z.preprocess(noneWhenEmpty, z.string().nullish()),
  segmentId: z.preprocess(noneWhenEmpty, z.string().nullish()),
  segmentMode: z.preprocess(noneWhenEmpty, campaignSchema.shape.segmentMode),
  previewText: z.preprocess(noneWhenEmpty, campaignSchema.shape.previewText),
  text: z.preprocess(noneWhenEmpty, campaignSchema.shape.text),
  // Written in the block editor, the body is its document and the server renders the HTML; written as HTML, it is the HTML.
  html: z.string().max(2 * 1024 * 1024),
  document: documentField.nullish(),
});

const hasBody = {
  check: (form: { html: string; document?: unknown }) => Boolean(form.document) || form.html.trim() !== "",
  message: "must not be empty",
  path: ["html"],
};

export const campaignFormSchema = fields.refine(hasBody.check, { message: hasBody.message, path: hasBody.path });

export const editCampaignFormSchema = fields
  .extend({ campaignId: z.string() })
  .refine(hasBody.check, { message: hasBody.message, path: hasBody.path });
