import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";

import { passwordFingerprint } from "./password-reset-link";

/** The fingerprint of the account's password as it is now; null without one (or without the account). */
export async function currentPasswordFingerprint(ctx: Ctx, userId: string): Promise<string | null> {
  const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return user?.passwordHash ? passwordFingerprint(user.passwordHash) : null;
}
