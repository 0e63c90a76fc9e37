import "server-only";

import { eq } from "drizzle-orm";

import { normalizeEmail } from "@/lib/contacts/email-address";
import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/** Makes an existing user one of the service's operators (an operator's command, never a workspace's). */
export async function grantOperator(ctx: Ctx, email: string): Promise<string> {
  const [user] = await ctx.db
    .update(users)
    .set({ isOperator: true })
    .where(eq(users.email, normalizeEmail(email)))
    .returning({ id: users.id });
  if (!user) throw notFound("user_not_found", `No user ${email}.`);
  return user.id;
}
