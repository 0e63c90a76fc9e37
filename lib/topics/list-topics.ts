import "server-only";

import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { subscriptions, topics } from "@/lib/db/schema";

export interface TopicView {
  id: string;
  name: string;
  description: string;
  brandId: string;
  requiresConfirmation: boolean;
  subscriberCount: number;
  createdAt: Date;
}

/** Live topics, newest first; a brand-locked key sees its brand's only. Counts confirmed subscribers only. */
export async function listTopics(
  ctx: Ctx,
  actor: Actor,
  page: { limit: number; afterId: string | null },
): Promise<TopicView[]> {
  return ctx.db
    .select({
      id: topics.id,
      name: topics.name,
      description: topics.description,
      brandId: topics.brandId,
      requiresConfirmation: topics.requiresConfirmation,
      subscriberCount: sql<number>`(select count(*) from ${subscriptions} s where s.topic_id = "topics"."id" and s.state = 'subscribed')::int`,
      createdAt: topics.createdAt,
    })
    .from(topics)
    .where(
      and(
        inActorWorkspace(actor, topics.workspaceId),
        isNull(topics.archivedAt),
        actor.brandId ? eq(topics.brandId, actor.brandId) : undefined,
        page.afterId ? lt(topics.id, page.afterId) : undefined,
      ),
    )
    .orderBy(desc(topics.id))
    .limit(page.limit + 1);
}
