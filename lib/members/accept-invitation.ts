import "server-only";

import { and, eq, exists, isNull, sql } from "drizzle-orm";

import { withTransaction, type Ctx } from "@/lib/context";
import { memberships, users } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { hashPassword } from "@/lib/users/password";
import { parseInput } from "@/lib/validation/parse-input";

import { invitationInvalid, readInvitationToken } from "./invitation-link";
import { acceptInvitationSchema, type AcceptInvitationInput } from "./member-schemas";

/**
 * Sets the password of an invited person who has none, and so accepts the
 * membership. The signed link proves they read the invitation in their
 * mailbox; an account that already has a password is never changed here
 * (acceptMembership accepts for it).
 */
export async function acceptInvitation(ctx: Ctx, input: AcceptInvitationInput): Promise<{ email: string }> {
  const { token, password } = parseInput(acceptInvitationSchema, input);
  const invitation = readInvitationToken(token, ctx.clock.now());
  if (!invitation) throw invitationInvalid();
  const passwordHash = await hashPassword(password);
  const ofInvitation = and(
    eq(memberships.userId, invitation.userId),
    eq(memberships.workspaceId, invitation.workspaceId),
  );
  const updated = await withTransaction(ctx, async (tx) => {
    const [user] = await tx.db
      .update(users)
      .set({ passwordHash })
      // Only while the invitation's membership stands: a removed invitee's link sets nothing.
      .where(
        and(
          eq(users.id, invitation.userId),
          isNull(users.passwordHash),
          exists(tx.db.select({ one: memberships.userId }).from(memberships).where(ofInvitation)),
        ),
      )
      .returning({ email: users.email });
    // An owner named before they had an account was accepted when named; keep that time.
    if (user)
      await tx.db
        .update(memberships)
        .set({ acceptedAt: sql`coalesce(${memberships.acceptedAt}, ${tx.clock.now().toISOString()}::timestamptz)` })
        .where(ofInvitation);
    return user;
  });
  if (!updated) {
    const [user] = await ctx.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, invitation.userId));
    if (user?.passwordHash)
      throw new ApiError({
        type: "invalid_request_error",
        code: "invitation_used",
        message: "This account already has a password: sign in with it.",
      });
    throw invitationInvalid();
  }
  return { email: updated.email };
}
