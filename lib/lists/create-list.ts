import { z } from "zod";
import { lists } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { newId } from "@/lib/ids";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { nameField } from "@/lib/validation/fields";
import { parseInput } from "@/lib/validation/parse-input";

const createListSchema = z.strictObject({
  workspaceId: z.string(),
  brandId: z.string(),
  name: nameField,
  description: z.string().trim().max(1000).default(""),
});

export async function createList(ctx: Ctx, input: z.input<typeof createListSchema>): Promise<{ listId: string }> {
  const values = parseInput(createListSchema, input);
  await getBrandOrThrow(ctx, values.brandId, values.workspaceId);
  const listId = newId("ls");
  await ctx.db.insert(lists).values({ id: listId, ...values, createdAt: ctx.clock.now() });
  return { listId };
}
