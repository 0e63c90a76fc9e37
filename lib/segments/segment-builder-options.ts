import "server-only";

import { and, asc, desc, eq, isNull } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, campaigns, lists, topics } from "@/lib/db/schema";

/** The newest campaigns the builder offers for "opened or clicked campaign …". */
const CAMPAIGNS_OFFERED = 200;

/** What the segment builder offers: names and ids only (no counts), and each attribute's type for its operators. */
export async function segmentBuilderOptions(ctx: Ctx, actor: WorkspaceActor) {
  const workspaceId = actor.workspaceId;
  const [topicRows, listRows, campaignRows, attributeRows] = await Promise.all([
    ctx.db
      .select({ id: topics.id, name: topics.name })
      .from(topics)
      .where(and(eq(topics.workspaceId, workspaceId), isNull(topics.archivedAt)))
      .orderBy(asc(topics.name)),
    ctx.db
      .select({ id: lists.id, name: lists.name })
      .from(lists)
      .where(eq(lists.workspaceId, workspaceId))
      .orderBy(asc(lists.name)),
    ctx.db
      .select({ id: campaigns.id, name: campaigns.name })
      .from(campaigns)
      .where(eq(campaigns.workspaceId, workspaceId))
      .orderBy(desc(campaigns.id))
      .limit(CAMPAIGNS_OFFERED),
    ctx.db
      .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
      .from(attributeDefinitions)
      .where(eq(attributeDefinitions.workspaceId, workspaceId))
      .orderBy(asc(attributeDefinitions.key)),
  ]);
  return { topics: topicRows, lists: listRows, campaigns: campaignRows, attributes: attributeRows };
}
