import { createHash } from "node:crypto";

import { countRateLimit, type RateLimitPolicy } from "@/lib/api/rate-limit";
import { signInLimitedMessage } from "@/lib/auth/sign-in-limited-message";
import { normalizeEmail } from "@/lib/contacts/email-address";
import type { Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";

import { verifyCredentials } from "./verify-credentials";

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Attempts per address per window, right or wrong: slows guessing one account from many IPs. */
export const SIGN_IN_ATTEMPTS_PER_ACCOUNT = 10;
/** Attempts per client IP per window: slows trying one password on many accounts. */
export const SIGN_IN_ATTEMPTS_PER_IP = 30;

const PER_ACCOUNT: RateLimitPolicy = {
  bucket: "signin.account",
  limit: SIGN_IN_ATTEMPTS_PER_ACCOUNT,
  windowMs: SIGN_IN_WINDOW_MS,
};
const PER_IP: RateLimitPolicy = { bucket: "signin.ip", limit: SIGN_IN_ATTEMPTS_PER_IP, windowMs: SIGN_IN_WINDOW_MS };

/**
 * Email and password sign-in. Both limits are counted before the password is
 * checked, so a refused attempt costs one database round trip and no scrypt:
 * guessing cannot fill libuv's threadpool. An unknown client IP (the app not
 * served by scripts/serve.ts, see lib/http/client-ip.ts) shares one counter
 * rather than escaping the limit.
 */
export async function signInWithPassword(
  ctx: Ctx,
  input: { email: string; password: string; ip: string | null },
): Promise<{ id: string; email: string; name: string } | null> {
  // Hashed: the table holds no addresses, and its key stays short whatever was typed.
  const account = createHash("sha256").update(normalizeEmail(input.email)).digest("base64url");
  const [byAccount, byIp] = await Promise.all([
    countRateLimit(ctx, account, PER_ACCOUNT),
    countRateLimit(ctx, input.ip ?? "unknown", PER_IP),
  ]);
  const retryAfterSeconds = Math.max(byAccount.retryAfterSeconds ?? 0, byIp.retryAfterSeconds ?? 0);
  if (retryAfterSeconds > 0) {
    throw new ApiError({
      type: "rate_limit_error",
      code: "sign_in_rate_limited",
      message: signInLimitedMessage(retryAfterSeconds),
    });
  }
  return verifyCredentials(ctx, input.email, input.password);
}
