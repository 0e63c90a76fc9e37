import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { memberships, users, workspaces } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { sendServiceMail } from "@/lib/mail/send-service-mail";
import { appUrl } from "@/lib/runtime/app-url";
import { findOrInviteUser } from "@/lib/users/find-or-invite-user";
import { parseInput } from "@/lib/validation/parse-input";
import { assertCanManageMembers } from "./assert-can-manage-members";
import { invitationLink } from "./invitation-link";
import { inviteMemberSchema, type InviteMemberInput } from "./member-schemas";

/**
 * Adds a person to the workspace as a member and mails them: a link to set
 * their password when they have no account yet, a note that they were added
 * when they do. The membership is committed before the mail goes, so a mail
 * that fails can be sent again (resendInvitation) without adding anyone twice.
 */
export async function inviteMember(ctx: Ctx, actor: WorkspaceActor, input: InviteMemberInput): Promise<{ userId: string; mailed: boolean }> {
  const { email } = parseInput(inviteMemberSchema, input);
  await assertCanManageMembers(ctx, actor);
  const { userId, workspaceName } = await withTransaction(ctx, async (tx) => {
    const user = await findOrInviteUser(tx, email);
    const added = await tx.db
      .insert(memberships)
      .values({ workspaceId: actor.workspaceId, userId: user.id, role: "member", createdAt: tx.clock.now() })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    if (added.length === 0) throw new ApiError({ type: "invalid_request_error", code: "member_exists", param: "email", message: `${email} is already a member of this workspace.` });
    const [workspace] = await tx.db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, actor.workspaceId));
    return { userId: user.id, workspaceName: workspace!.name };
  });
  const mailed = await mailInvitation(ctx, actor.workspaceId, workspaceName, userId, email);
  return { userId, mailed };
}

/** Mails the invitation again to a member who has not set a password yet. */
export async function resendInvitation(ctx: Ctx, actor: WorkspaceActor, userId: string): Promise<{ mailed: boolean }> {
  await assertCanManageMembers(ctx, actor);
  const [row] = await ctx.db
    .select({ email: users.email, workspaceName: workspaces.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId), isNull(users.passwordHash)));
  if (!row) throw notFound("member_not_found", "No member of this workspace is waiting for an invitation.");
  return { mailed: await mailInvitation(ctx, actor.workspaceId, row.workspaceName, userId, row.email) };
}

/** The invitation mail; false when the transport refused it (the member stays, and the mail can be sent again). */
export async function mailInvitation(ctx: Ctx, workspaceId: string, workspaceName: string, userId: string, email: string): Promise<boolean> {
  // The service's own mail, not the workspace's: the link sets a password, so it must never show in the test mailbox.
  return sendServiceMail(ctx, {
    to: email,
    subject: `You have been added to ${workspaceName}`,
    paragraphs: [
      `You have been added to the workspace ${workspaceName}.`,
      `Set your password and sign in with the link below (valid for 7 days). If you already have an account, sign in at ${appUrl()}/signin.`,
    ],
    link: { href: invitationLink(userId, workspaceId, ctx.clock.now()), label: "Set your password and sign in" },
  });
}
