import { z } from "zod";

import { acceptInvitationSchema } from "@/lib/members/member-schemas";
import { emailField } from "@/lib/validation/fields";

// Schemas only (no database): the forms on the public pages check input with the same rules.

export const requestPasswordResetSchema = z.strictObject({ email: emailField });
export type RequestPasswordResetInput = z.input<typeof requestPasswordResetSchema>;

/** The new password follows the rule of the one set from an invitation. */
export const resetPasswordSchema = z.strictObject({
  token: z.string().min(1).max(2000),
  password: acceptInvitationSchema.shape.password,
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
