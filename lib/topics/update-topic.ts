import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { topics } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { updateTopicSchema } from "./topic-schemas";

/**
 * Renames a topic, rewrites its description or switches confirmation. Turning
 * confirmation off asserts the sender already holds consent for new
 * subscribers; it changes nothing for people already subscribed or pending.
 */
export async function updateTopic(
  ctx: Ctx,
  actor: WorkspaceActor,
  topicId: string,
  input: z.input<typeof updateTopicSchema>,
): Promise<{ topicId: string }> {
  const changes = parseInput(updateTopicSchema, input);
  const [updated] = await ctx.db
    .update(topics)
    .set(changes)
    .where(
      and(
        eq(topics.id, topicId),
        eq(topics.workspaceId, actor.workspaceId),
        actor.brandId ? eq(topics.brandId, actor.brandId) : undefined,
        isNull(topics.archivedAt),
      ),
    )
    .returning({ id: topics.id });
  if (!updated) throw notFound("topic_not_found", `No topic ${topicId}.`);
  return { topicId };
}
