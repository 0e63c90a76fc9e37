import "server-only";

import { eq } from "drizzle-orm";
import { notFound } from "next/navigation";

import { currentUser, requireUser, type SignedInUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { users } from "@/lib/db/schema";

/** The signed-in user when they are one of the service's operators (user:create --operator, user:grant-operator), else null. */
export async function findOperator(): Promise<SignedInUser | null> {
  const user = await currentUser();
  if (!user) return null;
  const [row] = await defaultCtx().db.select({ isOperator: users.isOperator }).from(users).where(eq(users.id, user.id));
  return row?.isOperator ? user : null;
}

/** For operator pages: a signed-out visitor goes to sign-in, anyone else sees the page does not exist. */
export async function requireOperator(): Promise<SignedInUser> {
  await requireUser();
  const operator = await findOperator();
  if (!operator) notFound();
  return operator;
}
