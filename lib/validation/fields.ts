import { z } from "zod";

import { isValidEmail, normalizeEmail } from "@/lib/contacts/email-address";

/** An email address, normalised, checked for length and form. */
export const emailField = z
  .string()
  .max(320, "must be at most 320 characters")
  .transform(normalizeEmail)
  .refine(isValidEmail, "must be a valid email address");

export const nameField = z.string().trim().min(1, "must not be empty").max(200);

/** An http(s) URL. */
export const urlField = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return ["http:", "https:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "must be an http or https URL");

/** A browser origin (`scheme://host[:port]`), stored in its canonical form. */
export const originField = z
  .string()
  .trim()
  .transform((value, ctx) => {
    try {
      const url = new URL(value);
      if (["http:", "https:"].includes(url.protocol) && url.pathname === "/" && !url.search && !url.hash)
        return url.origin;
    } catch {
      // fall through
    }
    ctx.addIssue({ code: "custom", message: "must be an origin such as https://example.com" });
    return z.NEVER;
  });
