import { z } from "zod";

import { emailField } from "@/lib/validation/fields";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.

export const MEMBER_ROLES = ["owner", "admin", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What each role may do, as the invitation form says it. */
export const ROLE_DESCRIPTIONS: Record<MemberRole, string> = {
  owner: "Everything: members, billing, keys and settings. Billing notices are mailed to the owners.",
  admin: "As an owner, but cannot make someone an owner: invites and removes members, manages billing.",
  member:
    "Contacts, lists, topics, forms, campaigns, keys and reports; cannot invite or remove members or manage billing.",
};

/** Owners grant any role; admins grant admin and member (an admin cannot make an owner). */
export function rolesGrantedBy(role: MemberRole | "operator"): MemberRole[] {
  if (role === "owner" || role === "operator") return [...MEMBER_ROLES];
  if (role === "admin") return ["admin", "member"];
  return [];
}

export const inviteMemberSchema = z.strictObject({
  email: emailField,
  role: z.enum(MEMBER_ROLES, "choose owner, admin or member").default("member"),
});
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
