import { z } from "zod";

// Schemas only (no database): the dashboard's forms check input in the browser with the same rules.
// The types repeat the attribute_definitions column's (lib/db/schema/contacts.ts), which browser code
// cannot import; the insert in define-attribute.ts type-checks them against the column.

/** The workspace is the actor's, never a field of the input. */
export const defineAttributeSchema = z.strictObject({
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, "must be lower-case letters, digits and _ (starting with a letter, at most 64)"),
  type: z.enum(["string", "number", "boolean", "date"]),
});
export type DefineAttributeInput = z.input<typeof defineAttributeSchema>;
export type AttributeKind = DefineAttributeInput["type"];
export type AttributeScalar = string | number | boolean;

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const MAX_STRING = 2000;

/**
 * Whether `value` is a value of an attribute of this type: strings up to 2,000 characters, finite
 * numbers, booleans, ISO 8601 dates. What the API, the signup forms, imports and the dashboard's
 * contact forms accept (validateAttributes in attributes.ts; the forms ask it in the browser too).
 */
export function attributeAccepts(type: AttributeKind, value: unknown): value is AttributeScalar {
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

const TRUE_WORDS = new Set(["true", "yes", "y", "1"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0"]);

/**
 * A spreadsheet cell as a value of the attribute's type, or undefined when
 * it is not one: numbers as written with a dot, booleans as true/false,
 * yes/no or 1/0, dates as ISO 8601. The cell is trimmed and not empty.
 */
export function attributeFromText(type: AttributeKind, text: string): AttributeScalar | undefined {
  let value: unknown = text;
  if (type === "number") value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : undefined;
  if (type === "boolean")
    value = TRUE_WORDS.has(text.toLowerCase()) ? true : FALSE_WORDS.has(text.toLowerCase()) ? false : undefined;
  return attributeAccepts(type, value) ? value : undefined;
}

/**
 * The browser's check of a contact form's attribute values against the workspace's definitions,
 * in the words the API refuses them with (validateAttributes), beside `attributes.<key>`.
 */
export function checkAttributeValues(definitions: { key: string; type: AttributeKind }[]) {
  const types = new Map(definitions.map((definition) => [definition.key, definition.type]));
  return (input: { attributes?: Record<string, unknown> }, ctx: z.RefinementCtx) => {
    for (const [key, value] of Object.entries(input.attributes ?? {})) {
      // A form's empty field that is left out, not sent.
      if (value === undefined) continue;
      const type = types.get(key);
      if (!type)
        ctx.addIssue({
          code: "custom",
          path: ["attributes", key],
          message: "no such attribute is defined on this workspace",
        });
      else if (value !== null && !attributeAccepts(type, value))
        ctx.addIssue({ code: "custom", path: ["attributes", key], message: `must be a ${type}` });
    }
  };
}

/**
 * The type a column's cells suggest for a new attribute (the mapping step's first choice, which the
 * sender can change): the one every non-empty cell is a value of, yes/no words before numbers (a
 * column of 0 and 1 is a number), then numbers, then dates; text otherwise, and for no cells at all.
 */
export function guessAttributeType(cells: string[]): AttributeKind {
  const values = cells.map((cell) => cell.trim()).filter(Boolean);
  if (values.length === 0) return "string";
  const all = (type: AttributeKind) => values.every((value) => attributeFromText(type, value) !== undefined);
  if (all("boolean") && !all("number")) return "boolean";
  if (all("number")) return "number";
  if (all("date")) return "date";
  return "string";
}
