import "server-only";

import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";

import { countRateLimit, type RateLimitPolicy } from "@/lib/api/rate-limit";
import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { sendServiceMail } from "@/lib/mail/send-service-mail";
import { parseInput } from "@/lib/validation/parse-input";

import { PASSWORD_RESET_VALID_MS, passwordResetLink } from "./password-reset-link";
import { requestPasswordResetSchema, type RequestPasswordResetInput } from "./password-reset-schemas";

export const PASSWORD_RESET_WINDOW_MS = 60 * 60_000;
/** Requests per address per hour, whether or not it has an account: nobody's inbox is flooded with links. */
export const PASSWORD_RESETS_PER_ACCOUNT = 3;
/** Requests per client IP per hour: slows asking for many addresses. */
export const PASSWORD_RESETS_PER_IP = 10;

const PER_ACCOUNT: RateLimitPolicy = {
  bucket: "password_reset.account",
  limit: PASSWORD_RESETS_PER_ACCOUNT,
  windowMs: PASSWORD_RESET_WINDOW_MS,
};
const PER_IP: RateLimitPolicy = {
  bucket: "password_reset.ip",
  limit: PASSWORD_RESETS_PER_IP,
  windowMs: PASSWORD_RESET_WINDOW_MS,
};

/**
 * "Forgot password": counts the request against both limits (refused past either, as sign-in is), then
 * hands back `mailing`, which looks the address up and mails a reset link if an account with a password
 * uses it. The caller answers first and waits for `mailing` after (next/server's after()), so the answer
 * is the same, and as quick, whether or not the account exists. The limits are counted for every address,
 * so being refused says nothing about it either.
 */
export async function requestPasswordReset(
  ctx: Ctx,
  input: RequestPasswordResetInput & { ip: string | null },
): Promise<{ mailing: Promise<void> }> {
  const { email } = parseInput(requestPasswordResetSchema, { email: input.email });
  // Hashed: the table holds no addresses (as sign-in's limit).
  const account = createHash("sha256").update(email).digest("base64url");
  const [byAccount, byIp] = await Promise.all([
    countRateLimit(ctx, account, PER_ACCOUNT),
    countRateLimit(ctx, input.ip ?? "unknown", PER_IP),
  ]);
  const wait = Math.max(byAccount.retryAfterSeconds ?? 0, byIp.retryAfterSeconds ?? 0);
  if (wait > 0) {
    const minutes = Math.max(1, Math.ceil(wait / 60));
    throw new ApiError({
      type: "rate_limit_error",
      code: "rate_limited",
      message: `Too many reset requests; try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
      headers: { "Retry-After": String(wait) },
    });
  }
  return { mailing: mailPasswordReset(ctx, email) };
}

async function mailPasswordReset(ctx: Ctx, email: string): Promise<void> {
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email));
  // No account, or one still waiting for its invitation (whose link sets the first password): nothing to reset.
  if (!user?.passwordHash) return;
  await sendServiceMail(ctx, {
    kind: "password_reset",
    to: user.email,
    subject: "Reset your password",
    paragraphs: [
      `Someone, probably you, asked to reset the password of the account ${user.email}.`,
      `Choose a new password with the link below. It works once, for ${PASSWORD_RESET_VALID_MS / 60_000} minutes. If you did not ask, ignore this mail: your password stays as it is.`,
    ],
    link: {
      href: passwordResetLink({ id: user.id, passwordHash: user.passwordHash }, ctx.clock.now()),
      label: "Choose a new password",
    },
  });
}
