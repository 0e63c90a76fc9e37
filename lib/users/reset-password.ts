import "server-only";

import { and, eq } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";
import { parseInput } from "@/lib/validation/parse-input";

import { hashPassword } from "./password";
import { passwordFingerprint, passwordResetInvalid, readPasswordResetToken } from "./password-reset-link";
import { resetPasswordSchema, type ResetPasswordInput } from "./password-reset-schemas";

/**
 * Sets a new password from a reset link. The link names the password it replaces: the row is changed only
 * while that password is still the account's, so the link works once (two tabs racing: one wins).
 */
export async function resetPassword(ctx: Ctx, input: ResetPasswordInput): Promise<{ email: string }> {
  const { token, password } = parseInput(resetPasswordSchema, input);
  const reset = readPasswordResetToken(token, ctx.clock.now());
  if (!reset) throw passwordResetInvalid();
  const passwordHash = await hashPassword(password);
  const changed = await withTransaction(ctx, async (tx) => {
    const [user] = await tx.db
      .select({ email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, reset.userId))
      .for("update");
    if (!user?.passwordHash || passwordFingerprint(user.passwordHash) !== reset.fingerprint) return null;
    await tx.db
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, reset.userId), eq(users.passwordHash, user.passwordHash)));
    return { email: user.email };
  });
  if (!changed) throw passwordResetInvalid();
  return changed;
}
