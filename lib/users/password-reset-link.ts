import "server-only";

import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { appUrl } from "@/lib/runtime/app-url";
import { signToken, verifyToken } from "@/lib/tokens/signed-token";

/** A reset link is valid this long: it sets a password, so it is short-lived. */
export const PASSWORD_RESET_VALID_MS = 60 * 60_000;

/**
 * Names the password the link replaces, without revealing anything of it: once any new password is set
 * (by this link, another one, or the admin CLI) the fingerprint no longer matches, so a link works once.
 */
export function passwordFingerprint(passwordHash: string): string {
  return createHash("sha256").update(`password_reset.${passwordHash}`).digest("base64url").slice(0, 22);
}

export function passwordResetLink(user: { id: string; passwordHash: string }, now: Date): string {
  return `${appUrl()}/reset-password/${signToken("password_reset", { u: user.id, p: passwordFingerprint(user.passwordHash), x: now.getTime() + PASSWORD_RESET_VALID_MS })}`;
}

export function readPasswordResetToken(token: string, now: Date): { userId: string; fingerprint: string } | null {
  const data = verifyToken<{ u: string; p: string; x: number }>("password_reset", token);
  if (
    !data ||
    typeof data.u !== "string" ||
    typeof data.p !== "string" ||
    typeof data.x !== "number" ||
    data.x < now.getTime()
  )
    return null;
  return { userId: data.u, fingerprint: data.p };
}

/** The address a link resets, or null when it is bad, expired or used: what the reset page shows first. */
export async function describePasswordReset(ctx: Ctx, token: string): Promise<{ email: string } | null> {
  const reset = readPasswordResetToken(token, ctx.clock.now());
  if (!reset) return null;
  const [user] = await ctx.db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, reset.userId));
  return user?.passwordHash && passwordFingerprint(user.passwordHash) === reset.fingerprint
    ? { email: user.email }
    : null;
}

export function passwordResetInvalid(): ApiError {
  return new ApiError({
    type: "invalid_request_error",
    code: "reset_link_invalid",
    message:
      "This link is not valid any more: it was used already, a newer password was set, or its hour is over. Ask for a new one.",
  });
}
