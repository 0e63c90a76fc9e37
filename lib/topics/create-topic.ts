import { z } from "zod";
import { topics } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { newId } from "@/lib/ids";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { nameField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";

const createTopicSchema = z.strictObject({
  workspaceId: z.string(),
  brandId: z.string(),
  name: nameField,
  description: z.string().trim().max(1000).default(""),
  requiresConfirmation: z.boolean().default(true),
});

/** Topics belong to a brand; double opt-in unless the sender asserts existing consent. */
export async function createTopic(ctx: Ctx, input: z.input<typeof createTopicSchema>): Promise<{ topicId: string }> {
  const values = parseInput(createTopicSchema, input);
  await getBrandOrThrow(ctx, values.brandId, values.workspaceId);
  const topicId = newId("tp");
  await ctx.db.insert(topics).values({ id: topicId, ...values, createdAt: ctx.clock.now() });
  return { topicId };
}
