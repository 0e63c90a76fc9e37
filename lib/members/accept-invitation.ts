import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { users } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { hashPassword } from "@/lib/users/password";
import { parseInput } from "@/lib/validation/parse-input";
import { readInvitationToken } from "./invitation-link";
import { acceptInvitationSchema, type AcceptInvitationInput } from "./member-schemas";

const expired = () => new ApiError({ type: "invalid_request_error", code: "invitation_invalid", message: "This invitation link is not valid or has expired: ask the workspace owner to invite you again." });

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
    .where(and(eq(users.id, invitation.userId), isNull(users.passwordHash)))
    .returning({ email: users.email });
  if (!updated) throw new ApiError({ type: "invalid_request_error", code: "invitation_used", message: "This account already has a password: sign in with it." });
  return { email: updated.email };
}
