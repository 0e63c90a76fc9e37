import "server-only";

import { sql } from "drizzle-orm";
import { z } from "zod";

import { CURRENCIES } from "@/lib/billing/plans";
import { withTransaction, type Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { emailField, nameField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

import { passwordField } from "./create-user";
import { isSetupOpen } from "./is-setup-open";
import { hashPassword } from "./password";

const firstOwnerSchema = z.strictObject({
  email: emailField,
  password: passwordField,
  workspaceName: nameField,
  currency: z.enum(CURRENCIES, "choose USD, EUR or GBP").default("usd"),
});

// Serialises concurrent first-run submissions so only one owner is ever created this way.
const FIRST_RUN_LOCK = 727_002;

function setupComplete(): ApiError {
  return new ApiError({
    type: "permission_error",
    code: "setup_complete",
    message: "The service is already set up: sign in instead.",
  });
}

/**
 * The first-run page: creates the first user and their workspace, only on an empty service. On a
 * self-hosted install that person runs the installation, so they are its operator too (they review
 * their own workspace, recorded as a self-review); a hosted deployment names operators with
 * user:grant-operator instead (HOSTED_SERVICE=1).
 */
export async function createFirstOwner(
  ctx: Ctx,
  input: z.input<typeof firstOwnerSchema>,
): Promise<{ userId: string; workspaceId: string }> {
  const { email, password, workspaceName, currency } = parseInput(firstOwnerSchema, input);
  // Checked before scrypt too: the page is public, and a closed setup must cost no hashing.
  if (!(await isSetupOpen(ctx))) throw setupComplete();
  const passwordHash = await hashPassword(password);
  return withTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`select pg_advisory_xact_lock(${FIRST_RUN_LOCK})`);
    if (!(await isSetupOpen(tx))) throw setupComplete();
    // A fresh row, never an update: the admin CLI does not take the lock, and a user it just made must not get this password.
    const [user] = await tx.db
      .insert(users)
      .values({ id: newId("usr"), email, passwordHash, isOperator: !env().HOSTED_SERVICE, createdAt: tx.clock.now() })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) throw setupComplete();
    const { workspaceId } = await createWorkspace(tx, { name: workspaceName, ownerEmail: email, currency });
    return { userId: user.id, workspaceId };
  });
}
