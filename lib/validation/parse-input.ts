import type { z } from "zod";
import { validationFailed } from "@/lib/errors";

/** Parses with a zod schema; the first issue becomes `validation_failed` naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const unknownKey = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const path = [...issue.path, ...(unknownKey ? [unknownKey] : [])].map(String).join(".") || "body";
  const message = unknownKey ? `Unknown field: ${path}.` : `${path}: ${issue.message}`;
  throw validationFailed(path, message);
}
