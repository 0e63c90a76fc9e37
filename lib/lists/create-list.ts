import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import type { Ctx } from "@/lib/context";
import { lists } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";

import { createListSchema, type CreateListInput } from "./list-schemas";

export async function createList(ctx: Ctx, actor: Actor, input: CreateListInput): Promise<{ listId: string }> {
  const values = parseInput(createListSchema, input);
  const workspaceId = requireActorWorkspace(actor);
  await getBrandOrThrow(ctx, actor, values.brandId);
  const listId = newId("ls");
  await ctx.db.insert(lists).values({ id: listId, workspaceId, ...values, createdAt: ctx.clock.now() });
  return { listId };
}
