import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { userActor, type UserActor } from "@/lib/actor";
import { currentUser, requireUser, type SignedInUser } from "@/lib/auth/current-user";
import { defaultCtx, type Ctx } from "@/lib/context";
import { listUserWorkspaces, type UserWorkspace } from "@/lib/workspaces/list-user-workspaces";

export interface WorkspaceSession {
  user: SignedInUser;
  workspace: UserWorkspace;
  /** Every workspace of the user, for the switcher. */
  workspaces: UserWorkspace[];
  ctx: Ctx;
  actor: UserActor;
}

/**
 * The signed-in member's session in one workspace, or null when there is no
 * user or the user is not a member (another workspace's id looks like none).
 * Cached per request: the layout, the page and its parts share one look-up.
 */
export const findWorkspaceSession = cache(async (workspaceId: string): Promise<WorkspaceSession | null> => {
  const user = await currentUser();
  if (!user) return null;
  const ctx = defaultCtx();
  const workspaces = await listUserWorkspaces(ctx, user.id);
  const workspace = workspaces.find((candidate) => candidate.id === workspaceId);
  if (!workspace) return null;
  return { user, workspace, workspaces, ctx, actor: userActor(user.id, workspaceId) };
});

/**
 * For layouts and pages: the session, a redirect to sign-in, or a 404. A
 * layout does not guard server actions: each action asks again (workspaceAction).
 * It takes the address's workspace id because this is where the person's membership is checked and their actor made.
 */
export async function getWorkspaceSession(workspaceId: string): Promise<WorkspaceSession> {
  await requireUser();
  const session = await findWorkspaceSession(workspaceId);
  if (!session) notFound();
  return session;
}
