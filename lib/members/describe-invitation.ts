import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { memberships, users, workspaces } from "@/lib/db/schema";

import { readInvitationToken } from "./invitation-link";

/**
 * What the invitation page shows before anything is accepted: whose and which workspace, whether the
 * person has a password and has accepted already; null for a bad link or a membership removed since.
 */
export async function describeInvitation(
  ctx: Ctx,
  token: string,
): Promise<{ email: string; workspaceName: string; hasPassword: boolean; accepted: boolean } | null> {
  const invitation = readInvitationToken(token, ctx.clock.now());
  if (!invitation) return null;
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
    .where(and(eq(memberships.userId, invitation.userId), eq(memberships.workspaceId, invitation.workspaceId)));
  if (!row) return null;
  return {
    email: row.email,
    workspaceName: row.workspaceName,
    hasPassword: row.passwordHash !== null,
    accepted: row.acceptedAt !== null && row.passwordHash !== null,
  };
}
