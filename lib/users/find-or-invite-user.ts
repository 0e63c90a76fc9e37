import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

export type UserRow = typeof users.$inferSelect;

/** The user with this (normalised) address, created without a password if there is none yet. */
export async function findOrInviteUser(ctx: Ctx, email: string): Promise<UserRow> {
  await ctx.db
    .insert(users)
    .values({ id: newId("usr"), email, passwordHash: null, createdAt: ctx.clock.now() })
    .onConflictDoNothing();
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  return user!;
}
