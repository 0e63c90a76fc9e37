import { z } from "zod";

import { documentField } from "@/lib/campaigns/campaign-schemas";
import { nameField } from "@/lib/validation/fields";

// Schemas only (no database): the template screens check input in the browser with the same rules.

const BODY_LIMIT = 2 * 1024 * 1024;
// A form's empty textarea means "none".
const noneWhenEmpty = (value: unknown) => (value === "" ? null : value);

export const templateIdSchema = z.strictObject({ templateId: z.string() });

export const renameTemplateSchema = z.strictObject({ templateId: z.string(), name: nameField });
export type RenameTemplateInput = z.input<typeof renameTemplateSchema>;

/** A template's name and body: the block editor's document (its HTML is rendered on the server), or HTML and an optional text part. */
export const updateTemplateSchema = z
  .strictObject({
    templateId: z.string(),
    name: nameField,
    document: documentField.nullish(),
    html: z.string().max(BODY_LIMIT),
    text: z.preprocess(noneWhenEmpty, z.string().max(BODY_LIMIT).nullish()),
  })
  .refine((input) => Boolean(input.document) || input.html.trim() !== "", {
    message: "must not be empty",
    path: ["html"],
  });
export type UpdateTemplateInput = z.input<typeof updateTemplateSchema>;
