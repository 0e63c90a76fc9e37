import "server-only";

import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";

/** Whether any user row exists, with or without a password (an owner named by the admin CLI has none). */
export async function hasAnyUser(ctx: Ctx): Promise<boolean> {
  const rows = await ctx.db.select({ id: users.id }).from(users).limit(1);
  return rows.length > 0;
}
