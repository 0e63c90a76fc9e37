import "server-only";

import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";

import { defaultCtx } from "@/lib/context";
import { users } from "@/lib/db/schema";

import { authOptions } from "./auth-options";

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
}

/**
 * The signed-in user, or null (also when the account behind a still-valid cookie is gone).
 * Once per request while rendering: every dashboard page asks from its layouts, its page and the
 * operator check, and each ask decrypted the cookie and read the users table again.
 */
export const currentUser = cache(async (): Promise<SignedInUser | null> => {
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  const [user] = await defaultCtx()
    .db.select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, id));
  return user ?? null;
});

/** For pages and server actions: the signed-in user, or a redirect to sign-in. */
export async function requireUser(): Promise<SignedInUser> {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return user;
}
