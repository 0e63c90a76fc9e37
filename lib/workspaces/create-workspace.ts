import "server-only";

import { eq } from "drizzle-orm";
import { z } from "zod";

import { CURRENCIES } from "@/lib/billing/plans";
import { startBilling } from "@/lib/billing/start-billing";
import { withTransaction, type Ctx } from "@/lib/context";
import { memberships, users, workspaces } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { findOrInviteUser } from "@/lib/users/find-or-invite-user";
import { emailField, nameField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";

const createWorkspaceSchema = z.strictObject({
  name: nameField,
  ownerEmail: emailField,
  currency: z.enum(CURRENCIES).default("usd"),
});

/**
 * Creates a workspace owned by the person with `ownerEmail` (who may not have
 * an account yet) and puts it on the billing ladder, in a currency fixed from now on.
 */
export async function createWorkspace(
  ctx: Ctx,
  input: z.input<typeof createWorkspaceSchema>,
): Promise<{ workspaceId: string; ownerUserId: string }> {
  const { name, ownerEmail, currency } = parseInput(createWorkspaceSchema, input);
  return withTransaction(ctx, async (tx) => {
    const owner = await findOrInviteUser(tx, ownerEmail);
    const workspaceId = newId("ws");
    await tx.db.insert(workspaces).values({ id: workspaceId, name, createdAt: tx.clock.now() });
    // The owner is named by signup or the operator, not invited by a member: accepted at once.
    await tx.db
      .insert(memberships)
      .values({ workspaceId, userId: owner.id, role: "owner", acceptedAt: tx.clock.now(), createdAt: tx.clock.now() });
    await startBilling(tx, workspaceId, owner.trialUsedAt !== null, currency);
    if (!owner.trialUsedAt)
      await tx.db.update(users).set({ trialUsedAt: tx.clock.now() }).where(eq(users.id, owner.id));
    return { workspaceId, ownerUserId: owner.id };
  });
}
