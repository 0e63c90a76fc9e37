import "server-only";

import { ApiError } from "@/lib/errors";
import { appUrl } from "@/lib/runtime/app-url";
import { signToken, verifyToken } from "@/lib/tokens/signed-token";

export const INVITATION_VALID_MS = 7 * 24 * 60 * 60 * 1000;

/** A signed link that lets the invited person set their password, valid for a week. Internal: inviteMember's link, for the workspace its actor invites into. */
export function invitationLink(userId: string, workspaceId: string, now: Date): string {
  return `${appUrl()}/invite/${signToken("invite", { u: userId, w: workspaceId, x: now.getTime() + INVITATION_VALID_MS })}`;
}

export function readInvitationToken(token: string, now: Date): { userId: string; workspaceId: string } | null {
  const data = verifyToken<{ u: string; w: string; x: number }>("invite", token);
  if (
    !data ||
    typeof data.u !== "string" ||
    typeof data.w !== "string" ||
    typeof data.x !== "number" ||
    data.x < now.getTime()
  )
    return null;
  return { userId: data.u, workspaceId: data.w };
}

/** A bad, altered or expired link, or one whose membership was removed meanwhile. */
export function invitationInvalid(): ApiError {
  return new ApiError({
    type: "invalid_request_error",
    code: "invitation_invalid",
    message: "This invitation link is not valid or has expired: ask the workspace owner to invite you again.",
  });
}
