import { z } from "zod";
import { emailField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

export const inviteMemberSchema = z.strictObject({ email: emailField });
export type InviteMemberInput = z.input<typeof inviteMemberSchema>;

export const acceptInvitationSchema = z.strictObject({
  token: z.string().min(1).max(2000),
  password: z.string().min(8, "must be at least 8 characters").max(200),
});
export type AcceptInvitationInput = z.input<typeof acceptInvitationSchema>;
