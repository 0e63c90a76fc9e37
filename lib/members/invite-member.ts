import "server-only";

import { and, eq, isNull, or } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { memberships, users, workspaces } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { limitServiceMail, SERVICE_MAILS_PER_DAY } from "@/lib/mail/limit-service-mail";
import { sendServiceMail } from "@/lib/mail/send-service-mail";
import { findOrInviteUser } from "@/lib/users/find-or-invite-user";
import { parseInput } from "@/lib/validation/parse-input";

import { assertCanManageMembers } from "./assert-can-manage-members";
import { invitationLink } from "./invitation-link";
import { inviteMemberSchema, rolesGrantedBy, type InviteMemberInput } from "./member-schemas";

/** Invitations, resent ones included, are limited as confirmation links are (limit-service-mail.ts). */
export const INVITATION_MAILS_PER_DAY = SERVICE_MAILS_PER_DAY;

const memberExists = (email: string) =>
  new ApiError({
    type: "invalid_request_error",
    code: "member_exists",
    param: "email",
    message: `${email} is already a member of this workspace.`,
  });

/**
 * Adds a person to the workspace as a member, waiting for them to accept, and
 * mails them the link that accepts: it sets their password when they have no
 * account yet. The membership is committed before the mail goes, so a mail
 * that fails can be sent again (resendInvitation) without adding anyone twice.
 */
export async function inviteMember(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: InviteMemberInput,
): Promise<{ userId: string; mailed: boolean }> {
  const { email, role } = parseInput(inviteMemberSchema, input);
  const inviterRole = await assertCanManageMembers(ctx, actor);
  if (!rolesGrantedBy(inviterRole).includes(role)) {
    throw new ApiError({
      type: "permission_error",
      code: "not_allowed",
      param: "role",
      message: "Only an owner can make someone an owner: choose admin or member.",
    });
  }
  // Checked before the mail is counted, so inviting a member twice says so rather than "too many".
  const [existing] = await ctx.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(users.email, email)));
  if (existing) throw memberExists(email);
  await limitInvitationMail(ctx, actor.workspaceId, email, "email");
  const { userId, workspaceName, hasPassword } = await withTransaction(ctx, async (tx) => {
    const user = await findOrInviteUser(tx, email);
    const added = await tx.db
      .insert(memberships)
      .values({ workspaceId: actor.workspaceId, userId: user.id, role, acceptedAt: null, createdAt: tx.clock.now() })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    if (added.length === 0) throw memberExists(email);
    const [workspace] = await tx.db
      .select({ name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.id, actor.workspaceId));
    return { userId: user.id, workspaceName: workspace!.name, hasPassword: user.passwordHash !== null };
  });
  const mailed = await mailInvitation(ctx, {
    workspaceId: actor.workspaceId,
    workspaceName,
    userId,
    email,
    hasPassword,
  });
  return { userId, mailed };
}

/** Mails the invitation again to a member who has not accepted it yet (or, named as an owner, has no password yet). */
export async function resendInvitation(ctx: Ctx, actor: WorkspaceActor, userId: string): Promise<{ mailed: boolean }> {
  await assertCanManageMembers(ctx, actor);
  const [row] = await ctx.db
    .select({ email: users.email, passwordHash: users.passwordHash, workspaceName: workspaces.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(
      and(
        eq(memberships.workspaceId, actor.workspaceId),
        eq(memberships.userId, userId),
        or(isNull(memberships.acceptedAt), isNull(users.passwordHash)),
      ),
    );
  if (!row) throw notFound("member_not_found", "No member of this workspace is waiting for an invitation.");
  await limitInvitationMail(ctx, actor.workspaceId, row.email);
  const mailed = await mailInvitation(ctx, {
    workspaceId: actor.workspaceId,
    workspaceName: row.workspaceName,
    userId,
    email: row.email,
    hasPassword: row.passwordHash !== null,
  });
  return { mailed };
}

function limitInvitationMail(ctx: Ctx, workspaceId: string, email: string, param?: string): Promise<void> {
  return limitServiceMail(ctx, workspaceId, email, { bucket: "invitation", what: "invitations", param });
}

/** The invitation mail; false when the transport refused it (the member stays, and the mail can be sent again). */
async function mailInvitation(
  ctx: Ctx,
  {
    workspaceId,
    workspaceName,
    userId,
    email,
    hasPassword,
  }: { workspaceId: string; workspaceName: string; userId: string; email: string; hasPassword: boolean },
): Promise<boolean> {
  // The service's own mail, not the workspace's: the link sets a password, so the test mailbox shows it only as list-mailbox.ts allows.
  return sendServiceMail(ctx, {
    kind: "invitation",
    workspaceId,
    to: email,
    subject: `You have been invited to ${workspaceName}`,
    paragraphs: hasPassword
      ? [
          `You have been invited to the workspace ${workspaceName}.`,
          "You already have an account: accept the invitation with the link below (valid for 7 days), then sign in as usual.",
        ]
      : [
          `You have been invited to the workspace ${workspaceName}.`,
          "Set your password and sign in with the link below (valid for 7 days).",
        ],
    link: {
      href: invitationLink(userId, workspaceId, ctx.clock.now()),
      label: hasPassword ? "Accept the invitation" : "Set your password and sign in",
    },
  });
}
