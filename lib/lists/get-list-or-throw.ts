import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { lists } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export async function getListOrThrow(ctx: Ctx, actor: WorkspaceActor, listId: string) {
  const [list] = await ctx.db
    .select()
    .from(lists)
    .where(
      and(
        eq(lists.id, listId),
        eq(lists.workspaceId, actor.workspaceId),
        actor.brandId ? eq(lists.brandId, actor.brandId) : undefined,
      ),
    );
  if (!list) throw notFound("list_not_found", `No list ${listId}.`);
  return list;
}
