import "server-only";

import { and, asc, eq, isNull } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, brands, lists, segments, topics } from "@/lib/db/schema";

/** What the campaign form offers: names and ids only, no counts (a picker must not count a million rows). */
export async function campaignFormOptions(ctx: Ctx, actor: WorkspaceActor) {
  const workspaceId = actor.workspaceId;
  const [brandRows, topicRows, listRows, attributeRows, segmentRows] = await Promise.all([
    ctx.db
      .select({ id: brands.id, name: brands.name })
      .from(brands)
      .where(eq(brands.workspaceId, workspaceId))
      .orderBy(asc(brands.name)),
    ctx.db
      .select({ id: topics.id, name: topics.name, brandId: topics.brandId })
      .from(topics)
      .where(and(eq(topics.workspaceId, workspaceId), isNull(topics.archivedAt)))
      .orderBy(asc(topics.name)),
    ctx.db
      .select({ id: lists.id, name: lists.name })
      .from(lists)
      .where(eq(lists.workspaceId, workspaceId))
      .orderBy(asc(lists.name)),
    ctx.db
      .select({ key: attributeDefinitions.key })
      .from(attributeDefinitions)
      .where(eq(attributeDefinitions.workspaceId, workspaceId))
      .orderBy(asc(attributeDefinitions.key)),
    ctx.db
      .select({ id: segments.id, name: segments.name })
      .from(segments)
      .where(eq(segments.workspaceId, workspaceId))
      .orderBy(asc(segments.name)),
  ]);
  return {
    brands: brandRows,
    topics: topicRows,
    lists: listRows,
    segments: segmentRows,
    attributes: attributeRows.map((row) => row.key),
  };
}
