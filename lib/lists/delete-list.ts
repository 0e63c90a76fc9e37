import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { campaigns, lists } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";

/**
 * Deletes a list and its memberships. Nobody is unsubscribed: consent lives
 * on topics, and a list only narrows a campaign's audience. A list a
 * campaign was written for stays: that campaign's audience and report name it.
 */
export async function deleteList(ctx: Ctx, actor: WorkspaceActor, listId: string): Promise<{ listId: string }> {
  return withTransaction(ctx, async (tx) => {
    const [list] = await tx.db
      .select({ id: lists.id })
      .from(lists)
      .where(
        and(
          eq(lists.id, listId),
          eq(lists.workspaceId, actor.workspaceId),
          actor.brandId ? eq(lists.brandId, actor.brandId) : undefined,
        ),
      )
      .for("update");
    if (!list) throw notFound("list_not_found", `No list ${listId}.`);
    const [campaign] = await tx.db
      .select({ name: campaigns.name })
      .from(campaigns)
      .where(eq(campaigns.listId, listId))
      .limit(1);
    if (campaign) {
      throw new ApiError({
        type: "invalid_request_error",
        code: "list_in_use",
        message: `The campaign “${campaign.name}” is written for this list, so the list stays.`,
      });
    }
    await tx.db.delete(lists).where(eq(lists.id, listId));
    return { listId };
  });
}
