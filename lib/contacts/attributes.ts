import "server-only";

import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { attributeDefinitions, type AttributeType, type AttributeValue } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const MAX_STRING = 2000;

function accepts(type: AttributeType, value: unknown): value is AttributeValue {
  switch (type) {
    case "string":
      return typeof value === "string" && value.length <= MAX_STRING;
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return typeof value === "string" && DATE.test(value) && !Number.isNaN(Date.parse(value));
  }
}

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
    if (value !== null && !accepts(type, value))
      throw validationFailed(`attributes.${key}`, `attributes.${key}: must be a ${type}.`);
  }
  return attributes as Record<string, AttributeValue | null>;
}

const TRUE_WORDS = new Set(["true", "yes", "y", "1"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0"]);

/**
 * A spreadsheet cell as a value of the attribute's type, or undefined when
 * it is not one: numbers as written with a dot, booleans as true/false,
 * yes/no or 1/0, dates as ISO 8601. The cell is trimmed and not empty.
 */
export function attributeFromText(type: AttributeType, text: string): AttributeValue | undefined {
  let value: unknown = text;
  if (type === "number") value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : undefined;
  if (type === "boolean")
    value = TRUE_WORDS.has(text.toLowerCase()) ? true : FALSE_WORDS.has(text.toLowerCase()) ? false : undefined;
  return accepts(type, value) ? value : undefined;
}
