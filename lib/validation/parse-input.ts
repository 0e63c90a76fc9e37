import type { z } from "zod";

import { validationFailed } from "@/lib/errors";

/** Parses with a zod schema; the first issue becomes `validation_failed` naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  refuseUnsafeInput(input);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const unknownKey = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const path = [...issue.path, ...(unknownKey ? [unknownKey] : [])].map(String).join(".") || "body";
  const message = unknownKey ? `Unknown field: ${path}.` : `${path}: ${issue.message}`;
  throw validationFailed(path, message);
}

interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

/**
 * What zod would let through to a failure or a silent loss, refused as
 * `validation_failed` naming the field:
 * - NUL (U+0000) in any string or name: PostgreSQL text cannot hold it, and the
 *   query would fail (a 500).
 * - A lone surrogate (`"\ud800"` is valid JSON): it has no UTF-8 form and would
 *   be stored as U+FFFD, the silent replacement a body that is not UTF-8 is refused for.
 * - A `__proto__` name anywhere (JSON.parse makes it an own field): zod's
 *   records drop it without a word, so `attributes: { "__proto__": … }` would
 *   be accepted and ignored instead of refused as an undefined attribute.
 * Walks with its own stack: a JSON body can nest 100,000 deep.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function refuseUnsafeInput(input: unknown): void {
  const stack: Visit[] = [{ value: input, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === "string" && value.includes("\u0000"))
      throw refusal(visit, "must not contain NUL characters (U+0000)");
    if (typeof value === "string" && LONE_SURROGATE.test(value))
      throw refusal(visit, "must be valid Unicode (a lone surrogate has no UTF-8 form)");
    if (typeof value !== "object" || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const next = { value: child, key, parent: visit };
      if (key.includes("\u0000")) throw refusal(next, "must not contain NUL characters (U+0000)");
      if (key === "__proto__") throw refusal(next, null);
      stack.push(next);
    }
  }
}

function refusal(visit: Visit, rule: string | null): Error {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) keys.unshift(at.key);
  const path = keys.join(".").replaceAll("\u0000", "\\u0000") || "body";
  return validationFailed(path, rule ? `${path}: ${rule}.` : `Unknown field: ${path}.`);
}
