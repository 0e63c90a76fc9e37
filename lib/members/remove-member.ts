import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { memberships } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { assertCanManageMembers } from "./assert-can-manage-members";

/** Removes a member; the last owner stays, so a workspace always has someone who can manage it. */
export async function removeMember(ctx: Ctx, actor: WorkspaceActor, userId: string): Promise<{ userId: string }> {
  await assertCanManageMembers(ctx, actor);
  return withTransaction(ctx, async (tx) => {
    // Serialises removals in one workspace, so two owners cannot remove each other at once.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`members:${actor.workspaceId}`}))`);
    const [member] = await tx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
    if (!member) throw notFound("member_not_found", "No such member in this workspace.");
    if (member.role === "owner") {
      const [other] = await tx.db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.role, "owner"), ne(memberships.userId, userId)))
        .limit(1);
      if (!other) throw new ApiError({ type: "invalid_request_error", code: "last_owner", message: "A workspace keeps at least one owner: make someone else an owner first." });
    }
    await tx.db.delete(memberships).where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
    return { userId };
  });
}
