import "server-only";

import { and, eq, exists, isNotNull, isNull } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { memberships, users, workspaces } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";

import { invitationInvalid, readInvitationToken } from "./invitation-link";

/**
 * Accepts the invitation of a person who already has an account: the signed
 * link proves they read it in their mailbox. Until then they are a member
 * but not one of the sandbox's recipients (sandbox_recipients), so a
 * workspace cannot mail an address by inviting its account.
 */
export async function acceptMembership(ctx: Ctx, token: string): Promise<{ email: string; workspaceName: string }> {
  const invitation = readInvitationToken(token, ctx.clock.now());
  if (!invitation) throw invitationInvalid();
  const ofInvitation = and(
    eq(memberships.userId, invitation.userId),
    eq(memberships.workspaceId, invitation.workspaceId),
  );
  const hasPassword = exists(
    ctx.db
      .select({ one: users.id })
      .from(users)
      .where(and(eq(users.id, invitation.userId), isNotNull(users.passwordHash))),
  );
  const [accepted] = await ctx.db
    .update(memberships)
    .set({ acceptedAt: ctx.clock.now() })
    .where(and(ofInvitation, isNull(memberships.acceptedAt), hasPassword))
    .returning({ userId: memberships.userId });
  const [row] = await ctx.db
    .select({
      email: users.email,
      passwordHash: users.passwordHash,
      acceptedAt: memberships.acceptedAt,
      workspaceName: workspaces.name,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(ofInvitation);
  // A removed invitee's link accepts nothing; one without a password sets it first (acceptInvitation).
  if (!row?.passwordHash) throw invitationInvalid();
  if (!accepted)
    throw new ApiError({
      type: "invalid_request_error",
      code: "invitation_used",
      message: "You have already joined this workspace: sign in to reach it.",
    });
  return { email: row.email, workspaceName: row.workspaceName };
}
