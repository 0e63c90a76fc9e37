import "server-only";
import { and, eq } from "drizzle-orm";
import { memberships } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { notFound } from "@/lib/errors";

/** A workspace the user is not a member of looks the same as one that does not exist. */
export async function assertMember(ctx: Ctx, userId: string, workspaceId: string): Promise<void> {
  const [row] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, workspaceId)));
  if (!row) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`);
}
