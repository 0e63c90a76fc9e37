import "server-only";

import { eq } from "drizzle-orm";

import { checkWorkspaceActive } from "@/lib/api/check-workspace-active";
import type { Ctx } from "@/lib/context";
import { workspaceBilling } from "@/lib/db/schema";

/**
 * The billing ladder's rule for a change made outside /v1 (an import): a
 * read-only, deletion-scheduled or deleted workspace refuses it with
 * `team_inactive`. Reads (an export) use `checkWorkspaceReadable`.
 * Internal: the guard the action and route wrappers and the writing verbs run once the actor's workspace is known.
 */
export async function checkWorkspaceWritable(ctx: Ctx, workspaceId: string): Promise<void> {
  checkWorkspaceActive(await stageOf(ctx, workspaceId), "POST");
}

/** Every stage short of deleted reads: reports and contact export keep working. Internal: the guard contact export runs once the actor's workspace is known. */
export async function checkWorkspaceReadable(ctx: Ctx, workspaceId: string): Promise<void> {
  checkWorkspaceActive(await stageOf(ctx, workspaceId), "GET");
}

async function stageOf(ctx: Ctx, workspaceId: string) {
  const [row] = await ctx.db
    .select({ stage: workspaceBilling.stage })
    .from(workspaceBilling)
    .where(eq(workspaceBilling.workspaceId, workspaceId));
  return row?.stage ?? null;
}
