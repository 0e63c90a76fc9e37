import "server-only";

import { and, asc, eq, isNull } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { lists, topics } from "@/lib/db/schema";

/**
 * The topic and list pickers of the contacts filter: names only. The topics
 * and lists screens count subscribers and members; a picker must not pay for
 * counting a million rows on every page of contacts.
 */
export async function listFilterOptions(
  ctx: Ctx,
  actor: WorkspaceActor,
): Promise<{ topics: { id: string; name: string }[]; lists: { id: string; name: string }[] }> {
  const [topicRows, listRows] = await Promise.all([
    ctx.db
      .select({ id: topics.id, name: topics.name })
      .from(topics)
      .where(and(eq(topics.workspaceId, actor.workspaceId), isNull(topics.archivedAt)))
      .orderBy(asc(topics.name)),
    ctx.db
      .select({ id: lists.id, name: lists.name })
      .from(lists)
      .where(eq(lists.workspaceId, actor.workspaceId))
      .orderBy(asc(lists.name)),
  ]);
  return { topics: topicRows, lists: listRows };
}
