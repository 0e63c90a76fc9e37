import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { topics } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/** An archived topic takes no new subscribers and answers `topic_not_found`; its history stays. */
export async function archiveTopic(
  ctx: Ctx,
  actor: Actor,
  topicId: string,
): Promise<{ topicId: string; archivedAt: Date }> {
  const [topic] = await ctx.db
    .select()
    .from(topics)
    .where(and(eq(topics.id, topicId), inActorWorkspace(actor, topics.workspaceId)));
  if (!topic) throw notFound("topic_not_found", `No topic ${topicId}.`);
  const archivedAt = topic.archivedAt ?? ctx.clock.now();
  await ctx.db.update(topics).set({ archivedAt }).where(eq(topics.id, topicId));
  return { topicId, archivedAt };
}
