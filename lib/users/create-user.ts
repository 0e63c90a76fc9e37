import "server-only";

import { eq } from "drizzle-orm";
import { z } from "zod";

import { withTransaction, type Ctx } from "@/lib/context";
import { memberships, users, workspaces } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { emailField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";

import { findOrInviteUser } from "./find-or-invite-user";
import { hashPassword } from "./password";

export const passwordField = z.string().min(8, "must be at least 8 characters").max(200);

const createUserSchema = z.strictObject({
  email: emailField,
  password: passwordField,
  workspaceId: z.string().optional(),
});

/**
 * Creates a user who can sign in, or sets the password of one who was named
 * as a workspace owner before they had an account. Optionally adds them to a
 * workspace as a member.
 */
export async function createUser(ctx: Ctx, input: z.input<typeof createUserSchema>): Promise<{ userId: string }> {
  const { email, password, workspaceId } = parseInput(createUserSchema, input);
  const passwordHash = await hashPassword(password);
  return withTransaction(ctx, async (tx) => {
    if (workspaceId) {
      const [workspace] = await tx.db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId));
      if (!workspace) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`);
    }
    const user = await findOrInviteUser(tx, email);
    if (user.passwordHash) {
      throw new ApiError({
        type: "invalid_request_error",
        code: "user_exists",
        message: `A user with the address ${email} already exists.`,
        param: "email",
      });
    }
    await tx.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    if (workspaceId) {
      // The operator adds them: accepted at once, unlike a member's invitation.
      await tx.db
        .insert(memberships)
        .values({ workspaceId, userId: user.id, role: "member", acceptedAt: tx.clock.now(), createdAt: tx.clock.now() })
        .onConflictDoNothing();
    }
    return { userId: user.id };
  });
}
