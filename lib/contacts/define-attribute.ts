import { z } from "zod";
import { ATTRIBUTE_TYPES, attributeDefinitions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";
import { getWorkspaceOrThrow } from "@/lib/workspaces/get-workspace-or-throw";
import { parseInput } from "@/lib/validation/parse-input";

// Keys become merge tags (`{{contact.<key>}}`): the standard fields are taken.
const RESERVED_KEYS = new Set(["email", "first_name", "last_name", "id", "status", "created_at"]);

const defineAttributeSchema = z.strictObject({
  workspaceId: z.string(),
  key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "must be lower-case letters, digits and _ (starting with a letter, at most 64)"),
  type: z.enum(ATTRIBUTE_TYPES),
});

/** Defines a custom contact attribute; defining the same key again with the same type is a no-op. */
export async function defineAttribute(ctx: Ctx, input: z.input<typeof defineAttributeSchema>): Promise<{ key: string; type: string }> {
  const { workspaceId, key, type } = parseInput(defineAttributeSchema, input);
  if (RESERVED_KEYS.has(key)) {
    throw new ApiError({ type: "invalid_request_error", code: "validation_failed", param: "key", message: `key: ${key} is a standard contact field.` });
  }
  await getWorkspaceOrThrow(ctx, workspaceId);
  const [row] = await ctx.db
    .insert(attributeDefinitions)
    .values({ workspaceId, key, type, createdAt: ctx.clock.now() })
    .onConflictDoUpdate({ target: [attributeDefinitions.workspaceId, attributeDefinitions.key], set: { key } })
    .returning();
  if (row!.type !== type) {
    throw new ApiError({ type: "invalid_request_error", code: "attribute_exists", param: "key", message: `Attribute ${key} is already defined as ${row!.type}.` });
  }
  return { key, type };
}
