import { z } from "zod";

import { emailField, nameField, urlField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

const postalAddressField = z.string().trim().min(1, "must not be empty").max(500);

/** The workspace is the actor's, never a field of the input. */
export const createBrandSchema = z.strictObject({
  name: nameField,
  legalName: nameField,
  postalAddress: postalAddressField,
  websiteUrl: urlField,
  senderEmail: emailField,
});
export type CreateBrandInput = z.input<typeof createBrandSchema>;

export const updateBrandSchema = z.strictObject({
  name: nameField.optional(),
  legalName: nameField.optional(),
  postalAddress: postalAddressField.optional(),
  senderEmail: emailField.optional(),
  websiteUrl: urlField.optional(),
  logoUrl: urlField.optional(),
  primaryColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #1a2b3c")
    .optional(),
});
export type UpdateBrandInput = z.input<typeof updateBrandSchema>;

/** What recipients judge a sender by; changing any of it needs the service's review again (update-brand). */
export const BRAND_IDENTITY_FIELDS = ["name", "legalName", "postalAddress", "senderEmail"] as const;
