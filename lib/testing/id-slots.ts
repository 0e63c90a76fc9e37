import { readdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

import { typesOf, type JsonSchema, type Operation } from "./fuzz/operations";
import type { IdKind } from "./tenant-fixture";

/** Every parameter name the matrix knows: the kind of id it names, or null for one that names none. */
export type ParameterTable = Record<string, IdKind | null>;

/** Where a caller puts a value: a path parameter, a query parameter, a field of the body or of an action's input. */
export interface Slot {
  where: "path" | "query" | "body" | "argument";
  name: string;
}

/** The names in a JSON Schema object, nested objects and arrays of objects included (`changes.name`, `fields.attributes.key`). */
export function schemaNames(schema: JsonSchema, prefix = ""): string[] {
  const own = Object.entries(schema.properties ?? {});
  return own.flatMap(([name, property]) => {
    const inner = property.anyOf?.find((option) => option.type !== "null") ?? property;
    const nested =
      inner.type === "object" && inner.properties
        ? inner
        : inner.type === "array" && inner.items?.properties
          ? inner.items
          : null;
    return [`${prefix}${name}`, ...(nested ? schemaNames(nested, `${prefix}${name}.`) : [])];
  });
}

/** A zod schema's input as JSON Schema, as the OpenAPI document converts it. */
export const inputSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;

/** A /v1 path parameter's name with the segment before it, which says what it names: `contacts/{id}`. */
export function pathSlot(op: Operation, param: string): string {
  const segments = op.path.split("/");
  return `${segments[segments.indexOf(`{${param}}`) - 1]}/{${param}}`;
}

/** The slots of a /v1 operation: `{id}` in the path, its query parameters, its body's fields. */
export function operationSlots(op: Operation): Slot[] {
  return [
    ...op.pathParams.map((name) => ({ where: "path" as const, name: pathSlot(op, name) })),
    ...op.query.map(({ name }) => ({ where: "query" as const, name })),
    ...(op.paginated ? ["limit", "cursor"].map((name) => ({ where: "query" as const, name })) : []),
    ...(op.body ? schemaNames(op.body).map((name) => ({ where: "body" as const, name })) : []),
  ];
}

/** Files named `file` under `dir`, relative to it. */
export function filesUnder(dir: string, file: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((entry) => path.basename(entry) === file);
}

/** A dashboard route file's path parameters: its `[segments]`. */
export const routeParams = (file: string) => [...file.matchAll(/\[(\w+)\]/g)].map(([, name]) => name!);

/** The names of a function's parameters, read from its source (for server actions that take ids as arguments rather than a schema). */
export function parameterNames(fn: (...args: never[]) => unknown): string[] {
  const list = /^[^(]*\(([^)]*)\)/.exec(fn.toString())?.[1] ?? "";
  return list
    .split(",")
    .map((part) => part.trim().split(/[=:\s]/)[0]!)
    .filter(Boolean);
}

/** A segment rule that names no id: the shape a schema's example cannot guess (its conditions are a union). */
const MATRIX_RULE = {
  match: "all",
  groups: [{ match: "all", conditions: [{ kind: "field", field: "email", op: "is_set" }] }],
};

// Values for names that are no id: where "Matrix" would not pass the field's rule, and optional ones worth sending (an edit with no field changes nothing).
const HINTS: Record<string, unknown> = {
  name: "Matrix",
  email: "matrix@example.com",
  senderEmail: "news@matrix.example",
  to: "matrix@example.com",
  hostname: "mail.matrix.example",
  websiteUrl: "https://matrix.example",
  logoUrl: "https://matrix.example/logo.png",
  url: "http://127.0.0.1:9/matrix",
  color: "#1d4ed8",
  primaryColor: "#1d4ed8",
  key: "matrix_attribute",
  at: "2099-01-05T09:00:00.000Z",
  consentAsserted: true,
  mapping: ["email"],
  html: "<p>Matrix</p>",
  reason: "named by the tenant matrix",
  plan: "starter",
  outcome: "delivered",
  rule: MATRIX_RULE,
  rule_json: JSON.stringify(MATRIX_RULE),
  variants: ["Matrix A", "Matrix B"],
  testShare: 20,
};

/**
 * An input that the schema accepts, with `idFor(name, kind)` in every field
 * that names an id: required fields, id fields and fields with a hint; the
 * other optional ones are left out.
 */
export function exampleInput(
  schema: JsonSchema,
  name: string,
  table: ParameterTable,
  idFor: (name: string, kind: IdKind) => string,
  hints: Record<string, unknown> = {},
): unknown {
  const kind = table[name];
  if (kind)
    return typesOf(schema).includes("array") || /(Ids|_ids)$/.test(name) ? [idFor(name, kind)] : idFor(name, kind);
  if (name in hints) return hints[name];
  if (name in HINTS) return HINTS[name];
  const nullable =
    schema.anyOf?.some((option) => option.type === "null") ||
    (Array.isArray(schema.type) && schema.type.includes("null"));
  if (nullable) return null;
  if (schema.anyOf) return exampleInput(schema.anyOf[0]!, name, table, idFor, hints);
  if (schema.enum) return schema.enum[0];
  if ((schema as { default?: unknown }).default !== undefined) return (schema as { default?: unknown }).default;
  switch (([] as string[]).concat(schema.type ?? "string")[0]) {
    case "object": {
      const keep = ([field, property]: [string, JsonSchema]) =>
        schema.required?.includes(field) ||
        field in HINTS ||
        field in hints ||
        (table[field] ?? null) !== null ||
        property.type === "object";
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(keep)
          .map(([field, property]) => [field, exampleInput(property, field, table, idFor, hints)]),
      );
    }
    case "array":
      return schema.minItems ? [exampleInput(schema.items ?? {}, name, table, idFor, hints)] : [];
    case "boolean":
      return false;
    case "number":
    case "integer":
      return 1;
    default:
      return "Matrix";
  }
}
