import fc from "fast-check";

import type { FuzzWorld } from "./fuzz-world";

/** The part of JSON Schema 2020-12 that zod's converter writes for our request schemas. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** One method of one documented /v1 path, as the OpenAPI document describes it. */
export interface Operation {
  method: string;
  /** OpenAPI form: `/v1/contacts/{id}`. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  paginated: boolean;
  body: (JsonSchema & { properties: Record<string, JsonSchema> }) | null;
  keyKinds: ("secret" | "publishable")[];
}

interface DocumentOperation {
  parameters?: { name: string; in: string; schema: JsonSchema }[];
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  "x-key-kinds": ("secret" | "publishable")[];
}

/** Every operation of the document's `paths`: what the fuzzer builds its requests from. */
export function operationsOf(document: Record<string, unknown>): Operation[] {
  const paths = document.paths as Record<string, Record<string, DocumentOperation>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const parameters = op.parameters ?? [];
      const body = op.requestBody?.content["application/json"].schema ?? null;
      return {
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: parameters
          .filter((p) => p.in === "query" && p.name !== "limit" && p.name !== "cursor")
          .map(({ name, schema }) => ({ name, schema })),
        paginated: parameters.some((p) => p.in === "query" && p.name === "cursor"),
        body: body ? { ...body, properties: body.properties ?? {} } : null,
        keyKinds: op["x-key-kinds"],
      };
    }),
  );
}

/** The methods a documented path serves. */
export function servedMethods(operations: Operation[], path: string): string[] {
  return operations.filter((op) => op.path === path).map((op) => op.method);
}

/** The kind of id a path parameter names, from the segment before it (`/v1/contacts/{id}`: contacts). */
export function pathParamPool(world: FuzzWorld, path: string, param: string): string[] {
  const segment = path.split("/")[path.split("/").indexOf(`{${param}}`) - 1];
  const pools: Record<string, string[]> = {
    contacts: world.own.contactIds,
    lists: world.own.listIds,
    suppressions: world.own.suppressionIds,
  };
  return pools[segment ?? ""] ?? [];
}

/** The JSON types a schema admits. */
export function typesOf(schema: JsonSchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.enum) return [...new Set(schema.enum.map((value) => (value === null ? "null" : typeof value)))];
  const types =
    schema.type === undefined
      ? ["string", "number", "integer", "boolean", "null", "object", "array"]
      : ([] as string[]).concat(schema.type);
  return types.includes("integer") ? [...types, "number"] : types;
}

/** Rules of a body that its JSON Schema cannot say: fields of which exactly one must be given. */
export const EXACTLY_ONE_OF: Record<string, string[]> = { "POST /v1/suppressions": ["email", "domain"] };

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,18}[A-Za-z0-9]$/);

/**
 * A value the schema accepts, and the service too where the schema alone
 * cannot say (addresses, ids of workspace A, defined attributes): the base
 * that each defect then breaks, so that a refusal comes from that defect.
 */
export function validValue(world: FuzzWorld, schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => validValue(world, option, name)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = ([] as string[]).concat(schema.type ?? "string")[0];
  if (name === "email")
    return fc.constantFrom(...world.own.emails, "new.person@example.com", " Mixed.Case@Example.COM ");
  if (name === "domain") return fc.constantFrom("example.net", "news.example.org");
  if (name === "topic_id") return fc.constantFrom(...world.own.topicIds);
  if (name === "topic_ids") return fc.subarray(world.own.topicIds);
  if (name === "contact_ids") return fc.subarray(world.own.contactIds, { minLength: 1 });
  if (name === "attributes")
    return fc
      .subarray(world.own.attributes)
      .map((picked) => Object.fromEntries(picked.map(({ key, type: t }) => [key, ATTRIBUTE_EXAMPLES[t]])));
  switch (type) {
    case "object": {
      // The subscribe form's honeypot stays empty, as people leave it: a filled one is answered like a genuine
      // submission and dropped (the contract), so the defects the service checks after it would rightly pass.
      const properties = Object.entries(schema.properties ?? {}).filter(([key]) => key !== "website");
      return fc.record(
        Object.fromEntries(properties.map(([key, property]) => [key, validValue(world, property, key)])),
        { requiredKeys: schema.required ?? [] },
      );
    }
    case "array":
      return fc.array(validValue(world, schema.items ?? {}, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case "integer":
      return fc.integer({ min: 0, max: 100 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return word.filter(
        (value) => value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity),
      );
  }
}

const ATTRIBUTE_EXAMPLES = { string: "pro", number: 3, boolean: true, date: "2026-03-01" } as const;

/** A valid value for a query parameter, as text. */
export function validQueryValue(world: FuzzWorld, name: string, schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  if (name === "topic_id") return fc.constantFrom(...world.own.topicIds);
  if (name === "from") return fc.constantFrom("2026-01-01", "2025-12-01T00:00:00.000Z");
  if (name === "to") return fc.constantFrom("2026-03-01", "2026-02-15T12:30:00Z");
  return word;
}
