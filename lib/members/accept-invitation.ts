import "server-only";
import { and, eq, exists, isNull } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { memberships, users } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { hashPassword } from "@/lib/users/password";
import { parseInput } from "@/lib/validation/parse-input";
import { readInvitationToken } from "./invitation-link";
import { acceptInvitationSchema, type AcceptInvitationInput } from "./member-schemas";

const expired = () =>
  new ApiError({ type: "invalid_request_error", code: "invitation_invalid", message: "This invitation link is not valid or has expired: ask the workspace owner to invite you again." });

/**
 * Sets the password of an invited person who has none. The signed link
 * proves they read the invitation in their mailbox; an account that already
 * has a password is never changed here.
 */
export async function acceptInvitation(ctx: Ctx, input: AcceptInvitationInput): Promise<{ email: string }> {
  const { token, password } = parseInput(acceptInvitationSchema, input);
  const invitation = readInvitationToken(token, ctx.clock.now());
  if (!invitation) throw expired();
  const passwordHash = await hashPassword(password);
  const [updated] = await ctx.db
    .update(users)
    .set({ passwordHash })
    // Only while the invitation's membership stands: a removed invitee's link sets nothing.
    .where(
      and(
        eq(users.id, invitation.userId),
        isNull(users.passwordHash),
        exists(
          ctx.db
            .select({ one: memberships.userId })
            .from(memberships)
            .where(and(eq(memberships.userId, invitation.userId), eq(memberships.workspaceId, invitation.workspaceId))),
        ),
      ),
    )
    .returning({ email: users.email });
  if (!updated) {
    const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, invitation.userId));
    if (user?.passwordHash) throw new ApiError({ type: "invalid_request_error", code: "invitation_used", message: "This account already has a password: sign in with it." });
    throw expired();
  }
  return { email: updated.email };
}
