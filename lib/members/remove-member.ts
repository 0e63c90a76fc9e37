import "server-only";

import { and, eq, isNull, ne, sql } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { apiKeys, memberships, webhookEndpoints } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { assertCanManageMembers } from "./assert-can-manage-members";
import { removeMemberSchema, type RemoveMemberInput } from "./member-schemas";

export const CREATOR_REMOVED = "its creator was removed from the workspace";

/**
 * Removes a member; the last owner stays, so a workspace always has someone who can manage it. The
 * keys and endpoints they created are kept working or, with `keysAndEndpoints: "revoke"`, revoked and
 * turned off in the same transaction (listMemberCreations shows them first). Endpoints are turned off
 * rather than deleted: their delivery history stays, and events being recorded meanwhile still find them.
 */
export async function removeMember(
  ctx: Ctx,
  actor: WorkspaceActor,
  userId: string,
  input: RemoveMemberInput,
): Promise<{ userId: string; revokedKeys: number; disabledEndpoints: number }> {
  const { keysAndEndpoints } = parseInput(removeMemberSchema, input);
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
        .where(
          and(
            eq(memberships.workspaceId, actor.workspaceId),
            eq(memberships.role, "owner"),
            ne(memberships.userId, userId),
          ),
        )
        .limit(1);
      if (!other)
        throw new ApiError({
          type: "invalid_request_error",
          code: "last_owner",
          message: "A workspace keeps at least one owner: make someone else an owner first.",
        });
    }
    await tx.db
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, actor.workspaceId), eq(memberships.userId, userId)));
    if (keysAndEndpoints === "keep") return { userId, revokedKeys: 0, disabledEndpoints: 0 };
    const now = tx.clock.now();
    const revoked = await tx.db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(
        and(eq(apiKeys.workspaceId, actor.workspaceId), eq(apiKeys.createdByUserId, userId), isNull(apiKeys.revokedAt)),
      )
      .returning({ id: apiKeys.id });
    // Its delivery run reads the endpoint again before each batch and gives up what is pending.
    const disabled = await tx.db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledAt: now, disabledReason: CREATOR_REMOVED, updatedAt: now })
      .where(
        and(
          eq(webhookEndpoints.workspaceId, actor.workspaceId),
          eq(webhookEndpoints.createdByUserId, userId),
          eq(webhookEndpoints.enabled, true),
        ),
      )
      .returning({ id: webhookEndpoints.id });
    return { userId, revokedKeys: revoked.length, disabledEndpoints: disabled.length };
  });
}
