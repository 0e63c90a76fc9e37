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
