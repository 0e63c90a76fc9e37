import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { lists } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";

import { updateListSchema, type UpdateListInput } from "./list-schemas";

/** Renames a list or rewrites its description; its members stay. */
export async function updateList(
  ctx: Ctx,
  actor: WorkspaceActor,
  listId: string,
  input: UpdateListInput,
): Promise<{ listId: string }> {
  const changes = parseInput(updateListSchema, input);
  const [updated] = await ctx.db
    .update(lists)
    .set(changes)
    .where(
      and(
        eq(lists.id, listId),
        eq(lists.workspaceId, actor.workspaceId),
        actor.brandId ? eq(lists.brandId, actor.brandId) : undefined,
      ),
    )
    .returning({ id: lists.id });
  if (!updated) throw notFound("list_not_found", `No list ${listId}.`);
  return { listId };
}
