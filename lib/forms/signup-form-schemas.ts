import { z } from "zod";

import { urlField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's form editor checks input in the browser with the same rules.
// The enums repeat lib/db/schema/signup-forms.ts, which browser code cannot import; the insert in
// save-signup-form.ts type-checks them against the columns.

const fieldMode = z.enum(["off", "optional", "required"]);
const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const requiredText = (max: number) => text(max).min(1, "must not be empty");

export const signupFormSchema = z.strictObject({
  name: requiredText(120),
  brandId: z.string().min(1, "choose a brand"),
  topicIds: z.array(z.string().min(1)).min(1, "choose at least one topic").max(10, "at most 10 topics"),
  apiKeyId: z.string().min(1, "choose a publishable key"),
  fields: z.strictObject({
    firstName: fieldMode,
    lastName: fieldMode,
    attributes: z
      .array(z.strictObject({ key: z.string().min(1), label: requiredText(80), required: z.boolean() }))
      .max(10, "at most 10 attributes")
      .refine((list) => new Set(list.map((item) => item.key)).size === list.length, "an attribute is asked once"),
  }),
  texts: z.strictObject({
    title: text(200),
    description: text(500),
    button: requiredText(40),
    success: requiredText(300),
    checkInbox: requiredText(300),
    consent: text(500),
    privacyUrl: urlField.nullable(),
  }),
  style: z.strictObject({
    color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour such as #1d4ed8"),
    corners: z.enum(["rounded", "square"]),
    theme: z.enum(["light", "dark"]),
  }),
  challenge: z.boolean(),
  redirectUrl: urlField.nullable(),
});
export type SignupFormInput = z.input<typeof signupFormSchema>;
export type SignupFormValues = z.output<typeof signupFormSchema>;

/** A new form's texts and look, before the sender changes them. */
export const SIGNUP_FORM_DEFAULTS: Omit<SignupFormInput, "name" | "brandId" | "topicIds" | "apiKeyId"> = {
  fields: { firstName: "optional", lastName: "off", attributes: [] },
  texts: {
    title: "Join our newsletter",
    description: "",
    button: "Subscribe",
    success: "You're subscribed. Thank you!",
    checkInbox: "Almost there: check your inbox and click the link we sent to confirm.",
    consent: "You can unsubscribe at any time with the link in every email.",
    privacyUrl: null,
  },
  style: { color: "#1d4ed8", corners: "rounded", theme: "light" },
  challenge: false,
  redirectUrl: null,
};
