import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workspaces } from "@/lib/db/schema";

import { getWorkspaceOrThrow } from "./get-workspace-or-throw";

/** Records that the service's review of the workspace is done (it may then mail anyone). System: the operator's review and the admin CLI; no workspace member reaches it. */
export async function approveWorkspace(
  ctx: Ctx,
  workspaceId: string,
): Promise<{ workspaceId: string; approvedAt: Date }> {
  const workspace = await getWorkspaceOrThrow(ctx, workspaceId);
  const approvedAt = workspace.approvedAt ?? ctx.clock.now();
  await ctx.db.update(workspaces).set({ approvedAt }).where(eq(workspaces.id, workspaceId));
  return { workspaceId, approvedAt };
}
