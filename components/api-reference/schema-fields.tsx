import type { JsonSchema } from "./openapi-types";
import { Prose } from "./prose";

/** A schema with its `$ref` followed to the component it names. */
function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  return schema.$ref ? resolve(components[schema.$ref.split("/").pop()!] ?? {}, components) : schema;
}

/** How a type reads to a person: `string`, `integer ≥ 0`, `array of Contact`, `"a" | "b"`, `… or null`. */
export function typeLabel(raw: JsonSchema, components: Record<string, JsonSchema>): string {
  if (raw.$ref) return raw.$ref.split("/").pop()!;
  const schema = raw;
  if (schema.anyOf) {
    const parts = schema.anyOf.filter((part) => part.type !== "null").map((part) => typeLabel(part, components));
    const nullable = schema.anyOf.some((part) => part.type === "null");
    return `${[...new Set(parts)].join(" | ")}${nullable ? " or null" : ""}`;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.type === "array") return `array of ${schema.items ? typeLabel(schema.items, components) : "values"}`;
  if (schema.type === "object" && !schema.properties) return "object";
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== "null");
    return `${typeLabel({ ...schema, type: types.length === 1 ? types[0] : types }, components)}${schema.type.includes("null") ? " or null" : ""}`;
  }
  const type = schema.type ?? "any";
  const range =
    schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum < 2 ** 31
      ? `${schema.minimum} to ${schema.maximum}`
      : null;
  const bounds = [
    schema.format,
    range,
    schema.default !== undefined && `default ${JSON.stringify(schema.default)}`,
    schema.maxLength !== undefined && `≤ ${schema.maxLength} chars`,
    schema.maxItems !== undefined && `≤ ${schema.maxItems} items`,
  ]
    .filter(Boolean)
    .join(", ");
  return bounds ? `${type} (${bounds})` : type;
}

/**
 * The fields of an object schema, nested objects indented beneath their field.
 * In an answer every field is always present, so "required" is only said of requests.
 */
export function SchemaFields({
  schema,
  components,
  depth = 0,
  answer = false,
}: {
  schema: JsonSchema;
  components: Record<string, JsonSchema>;
  depth?: number;
  answer?: boolean;
}) {
  const object = resolve(schema.type === "array" && schema.items ? schema.items : schema, components);
  if (!object.properties) return <p className="text-sm text-muted-foreground">{typeLabel(schema, components)}</p>;
  return (
    <dl className={depth > 0 ? "mt-2 border-l pl-4" : "divide-y rounded-lg border"}>
      {Object.entries(object.properties).map(([name, raw]) => {
        const field = resolve(raw, components);
        const nested =
          field.type === "array" && field.items
            ? resolve(field.items, components)
            : (field.anyOf?.map((part) => resolve(part, components)).find((part) => part.properties) ?? field);
        return (
          <div key={name} className={depth > 0 ? "py-1.5" : "px-4 py-2.5"}>
            <dt className="flex flex-wrap items-baseline gap-x-2">
              <code className="font-mono text-sm font-medium">{name}</code>
              <span className="font-mono text-xs text-muted-foreground">{typeLabel(raw, components)}</span>
              {!answer && object.required?.includes(name) && (
                <span className="text-xs font-medium text-amber-700 dark:text-amber-400">required</span>
              )}
            </dt>
            {(raw.description ?? field.description) && (
              <dd className="mt-0.5 text-sm wrap-anywhere text-muted-foreground">
                <Prose text={(raw.description ?? field.description)!} />
              </dd>
            )}
            {nested.properties && depth < 3 && (
              <dd>
                <SchemaFields schema={nested} components={components} depth={depth + 1} answer={answer} />
              </dd>
            )}
          </div>
        );
      })}
    </dl>
  );
}
