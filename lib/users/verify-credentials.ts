import "server-only";

import { eq } from "drizzle-orm";

import { normalizeEmail } from "@/lib/contacts/email-address";
import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";

import { hashPassword, verifyPassword } from "./password";

// Hashed once per process so that an unknown address costs as much time as a wrong password.
let decoyHash: Promise<string> | undefined;

/** The user these credentials belong to, or null. */
export async function verifyCredentials(
  ctx: Ctx,
  email: string,
  password: string,
): Promise<{ id: string; email: string; name: string } | null> {
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  if (!user?.passwordHash) {
    decoyHash ??= hashPassword("decoy password");
    await verifyPassword(password, await decoyHash);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  return { id: user.id, email: user.email, name: user.name };
}
