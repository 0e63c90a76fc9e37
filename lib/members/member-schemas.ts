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

/**
 * What becomes of the API keys and webhook endpoints the member created: kept working, or revoked and
 * turned off with the removal. No default: whoever removes a member decides (the dashboard lists them first).
 */
export const removeMemberSchema = z.strictObject({ keysAndEndpoints: z.enum(["keep", "revoke"]) });
export type RemoveMemberInput = z.input<typeof removeMemberSchema>;

/** What a member created that still works (listMemberCreations): what removing them asks about. */
export interface MemberCreations {
  /** Keys not revoked yet. */
  apiKeys: { id: string; name: string; displayPrefix: string; last4: string }[];
  /** Endpoints still on. */
  webhookEndpoints: { id: string; url: string }[];
}
