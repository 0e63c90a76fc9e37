import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { attributeDefinitions, type AttributeValue } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";

import { attributeAccepts } from "./attribute-schemas";

/**
 * Custom attributes must be defined on the workspace and of their type; an
 * undefined key or a wrong type is `validation_failed` on `attributes.<key>`.
 * `null` clears a value.
 * Internal: the contact and signup-form verbs, with their actor's workspace.
 */
export async function validateAttributes(
  ctx: Ctx,
  workspaceId: string,
  attributes: Record<string, unknown>,
): Promise<Record<string, AttributeValue | null>> {
  const keys = Object.keys(attributes);
  if (keys.length === 0) return {};
  const definitions = await ctx.db
    .select()
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, workspaceId));
  const types = new Map(definitions.map((d) => [d.key, d.type]));
  for (const key of keys) {
    const type = types.get(key);
    const value = attributes[key];
    if (!type)
      throw validationFailed(`attributes.${key}`, `attributes.${key}: no such attribute is defined on this workspace.`);
    if (value !== null && !attributeAccepts(type, value))
      throw validationFailed(`attributes.${key}`, `attributes.${key}: must be a ${type}.`);
  }
  return attributes as Record<string, AttributeValue | null>;
}
