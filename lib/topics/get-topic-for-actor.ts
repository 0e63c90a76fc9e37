import "server-only";

import { and, eq, isNull } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";
import type { Ctx } from "@/lib/context";
import { cachedPlansDb } from "@/lib/db/client";
import { topics } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";

export type TopicRow = typeof topics.$inferSelect;

/**
 * A live topic of the actor's workspace. Missing, archived and other
 * workspaces' topics all answer `topic_not_found`, so ids cannot be probed; a
 * brand-locked key naming another brand's topic gets `topic_not_on_key_brand`.
 */
export async function getTopicForActorOrThrow(
  ctx: Ctx,
  actor: Actor,
  topicId: string,
  param = "topic_id",
): Promise<TopicRow> {
  // Reached by its key: planned once per connection (cachedPlansDb).
  const [topic] = await cachedPlansDb(ctx.db)
    .select()
    .from(topics)
    .where(and(eq(topics.id, topicId), inActorWorkspace(actor, topics.workspaceId), isNull(topics.archivedAt)));
  if (!topic) throw notFound("topic_not_found", `No topic ${topicId}.`, param);
  if (!keyReachesBrand(actor, topic.brandId)) {
    throw new ApiError({
      type: "invalid_request_error",
      code: "topic_not_on_key_brand",
      param,
      message: `Topic ${topicId} belongs to another brand than this key's.`,
    });
  }
  return topic;
}
