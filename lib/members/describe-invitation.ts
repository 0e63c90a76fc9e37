import "server-only";
import { eq } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { users, workspaces } from "@/lib/db/schema";
import { readInvitationToken } from "./invitation-link";

/** What the invitation page shows before the password is set: whose and which workspace, or null for a bad link. */
export async function describeInvitation(ctx: Ctx, token: string): Promise<{ email: string; workspaceName: string; hasPassword: boolean } | null> {
  const invitation = readInvitationToken(token, ctx.clock.now());
  if (!invitation) return null;
  const [user] = await ctx.db.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, invitation.userId));
  const [workspace] = await ctx.db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, invitation.workspaceId));
  if (!user || !workspace) return null;
  return { email: user.email, workspaceName: workspace.name, hasPassword: user.passwordHash !== null };
}
