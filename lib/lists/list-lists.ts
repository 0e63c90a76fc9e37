import "server-only";

import { and, desc, eq, lt, sql } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { listMembers, lists } from "@/lib/db/schema";

export interface ListView {
  id: string;
  name: string;
  description: string;
  brandId: string;
  memberCount: number;
  createdAt: Date;
}

/** Newest first; a brand-locked key sees its brand's lists only. */
export async function listLists(
  ctx: Ctx,
  actor: Actor,
  page: { limit: number; afterId: string | null },
): Promise<ListView[]> {
  return ctx.db
    .select({
      id: lists.id,
      name: lists.name,
      description: lists.description,
      brandId: lists.brandId,
      memberCount: sql<number>`(select count(*) from ${listMembers} m where m.list_id = "lists"."id")::int`,
      createdAt: lists.createdAt,
    })
    .from(lists)
    .where(
      and(
        inActorWorkspace(actor, lists.workspaceId),
        actor.brandId ? eq(lists.brandId, actor.brandId) : undefined,
        page.afterId ? lt(lists.id, page.afterId) : undefined,
      ),
    )
    .orderBy(desc(lists.id))
    .limit(page.limit + 1);
}
