import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { workspaces } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export type WorkspaceRow = typeof workspaces.$inferSelect;

/** Internal: for verbs that took the workspace from their actor, and for the operator's review. */
export async function getWorkspaceOrThrow(ctx: Ctx, workspaceId: string): Promise<WorkspaceRow> {
  const [workspace] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`);
  return workspace;
}
