import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";
import { getWorkspaceOrThrow } from "@/lib/workspaces/get-workspace-or-throw";

import { defineAttributeSchema, type AttributeKind, type DefineAttributeInput } from "./attribute-schemas";

// Keys become merge tags (`{{contact.<key>}}`): the standard fields are taken.
const RESERVED_KEYS = new Set(["email", "first_name", "last_name", "id", "status", "created_at"]);

/** Defines a custom contact attribute; defining the same key again with the same type is a no-op. */
export async function defineAttribute(
  ctx: Ctx,
  actor: Actor,
  input: DefineAttributeInput,
): Promise<{ key: string; type: AttributeKind }> {
  const { key, type } = parseInput(defineAttributeSchema, input);
  if (RESERVED_KEYS.has(key)) {
    throw new ApiError({
      type: "invalid_request_error",
      code: "validation_failed",
      param: "key",
      message: `key: ${key} is a standard contact field.`,
    });
  }
  const workspaceId = requireActorWorkspace(actor);
  await getWorkspaceOrThrow(ctx, workspaceId);
  const [row] = await ctx.db
    .insert(attributeDefinitions)
    .values({ workspaceId, key, type, createdAt: ctx.clock.now() })
    .onConflictDoUpdate({ target: [attributeDefinitions.workspaceId, attributeDefinitions.key], set: { key } })
    .returning();
  if (row!.type !== type) {
    throw new ApiError({
      type: "invalid_request_error",
      code: "attribute_exists",
      param: "key",
      message: `Attribute ${key} is already defined as ${row!.type}.`,
    });
  }
  return { key, type };
}
