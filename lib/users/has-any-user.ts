import { isNotNull } from "drizzle-orm";
import { users } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";

/** Whether anyone can sign in yet; until then the first-run page creates the owner. */
export async function hasAnyUser(ctx: Ctx): Promise<boolean> {
  const rows = await ctx.db.select({ id: users.id }).from(users).where(isNotNull(users.passwordHash)).limit(1);
  return rows.length > 0;
}
