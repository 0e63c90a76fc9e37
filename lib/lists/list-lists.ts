import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Caller } from "@/lib/caller";
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
export async function listLists(ctx: Ctx, caller: Caller, page: { limit: number; afterId: string | null }): Promise<ListView[]> {
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
        eq(lists.workspaceId, caller.workspaceId),
        caller.brandId ? eq(lists.brandId, caller.brandId) : undefined,
        page.afterId ? lt(lists.id, page.afterId) : undefined,
      ),
    )
    .orderBy(desc(lists.id))
    .limit(page.limit + 1);
}
