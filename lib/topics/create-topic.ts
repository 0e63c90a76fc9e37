import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import type { Ctx } from "@/lib/context";
import { topics } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";

import { createTopicSchema, type CreateTopicInput } from "./topic-schemas";

/** Topics belong to a brand; double opt-in unless the sender asserts existing consent. */
export async function createTopic(ctx: Ctx, actor: Actor, input: CreateTopicInput): Promise<{ topicId: string }> {
  const values = parseInput(createTopicSchema, input);
  const workspaceId = requireActorWorkspace(actor);
  await getBrandOrThrow(ctx, actor, values.brandId);
  const topicId = newId("tp");
  await ctx.db.insert(topics).values({ id: topicId, workspaceId, ...values, createdAt: ctx.clock.now() });
  return { topicId };
}
