import { z } from "zod";

import { attributesField } from "@/lib/validation/api-fields";
import { emailField } from "@/lib/validation/fields";

import { canonicalTimeZone } from "./time-zone";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

const optionalName = z.string().trim().max(120, "must be at most 120 characters").optional();

/**
 * A contact added by a member. Subscribing them to topics skips confirmation,
 * so the member asserts consent for those topics, as a caller of
 * POST /v1/contacts does.
 */
export const addContactSchema = z
  .strictObject({
    email: emailField,
    firstName: optionalName,
    lastName: optionalName,
    // The API's own field: each value is checked against the workspace's definitions (validateAttributes).
    attributes: attributesField.optional(),
    // A form with a single topic checkbox yields its value or false rather than a list.
    topicIds: z.preprocess(
      (value) => (Array.isArray(value) ? value : typeof value === "string" ? [value] : []),
      z.array(z.string()).max(100),
    ),
    consentAsserted: z.boolean().default(false),
  })
  .refine((input) => input.topicIds.length === 0 || input.consentAsserted, {
    message: "Confirm that this person gave you consent for the topics you ticked",
    path: ["consentAsserted"],
  });
export type AddContactInput = z.input<typeof addContactSchema>;

/**
 * A member's correction of a contact's name, time zone and custom attributes; an empty name or
 * time zone clears it, as does a `null` attribute. Attributes not named are left as they are.
 */
export const editContactSchema = z.strictObject({
  contactId: z.string(),
  firstName: z.string().trim().max(120, "must be at most 120 characters"),
  lastName: z.string().trim().max(120, "must be at most 120 characters"),
  /** An IANA time zone; empty clears it, left out keeps it. */
  timeZone: z
    .string()
    .trim()
    .max(64, "must be at most 64 characters")
    .refine((zone) => zone === "" || canonicalTimeZone(zone) !== null, "is not a time zone, such as Europe/Berlin")
    .optional(),
  attributes: attributesField.optional(),
});
export type EditContactInput = z.input<typeof editContactSchema>;

/** Adding a contact to, or taking them off, one list from the contact's page. */
export const contactListSchema = z.strictObject({ contactId: z.string(), listId: z.string().min(1, "choose a list") });
export type ContactListInput = z.input<typeof contactListSchema>;

/** Erasing a contact from their page: the member types the address, so that no slip of the mouse erases anyone. */
export const eraseContactSchema = z.strictObject({
  contactId: z.string(),
  confirmation: z.string().trim().min(1, "type their address to confirm").max(320),
});
export type EraseContactInput = z.input<typeof eraseContactSchema>;
