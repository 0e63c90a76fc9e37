import "server-only";

import { isNotNull } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";

/** Whether anyone can sign in at all; when users exist but none can, the admin CLI's user:create sets a password. */
export async function hasUserWithPassword(ctx: Ctx): Promise<boolean> {
  const rows = await ctx.db.select({ id: users.id }).from(users).where(isNotNull(users.passwordHash)).limit(1);
  return rows.length > 0;
}
