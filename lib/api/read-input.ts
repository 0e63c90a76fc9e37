import type { z } from "zod";

import { validationFailed } from "@/lib/errors";
import { readBodyCapped } from "@/lib/http/read-body-capped";
import { parseInput } from "@/lib/validation/parse-input";

export const MAX_BODY_BYTES = 1024 * 1024;

/** A JSON object body, strictly validated: unknown fields are `validation_failed` naming the field. */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType))
    throw validationFailed("body", "Send a JSON body with `Content-Type: application/json`.");
  const bytes = await readBodyCapped(request, MAX_BODY_BYTES);
  let text: string;
  try {
    // Fatal: JSON is UTF-8 (RFC 8259), and a lenient decoder would store U+FFFD in place of the bad bytes.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationFailed("body", "The body is not valid UTF-8.");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw validationFailed("body", "The body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw validationFailed("body", "The body must be a JSON object.");
  return parseInput(schema, body);
}

/** A route that takes no body (every GET and DELETE of /v1) refuses one rather than ignore it. */
export function refuseBody(request: Request): void {
  const length = request.headers.get("content-length");
  if ((length !== null && length !== "0") || request.headers.has("transfer-encoding")) {
    throw validationFailed(
      "body",
      `${request.method} ${new URL(request.url).pathname} takes no body; send the parameters in the query string.`,
    );
  }
}

/** Query parameters other than `limit` and `cursor`, strictly: an unknown one is `validation_failed`. */
export function readQuery<S extends z.ZodType>(query: URLSearchParams, schema: S, paginated: boolean): z.infer<S> {
  // No prototype: `?__proto__=x` becomes a parameter like any other (and is refused as unknown) instead of a prototype change.
  const values: Record<string, string> = Object.create(null);
  const seen = new Set<string>();
  for (const [name, value] of query) {
    if (seen.has(name)) throw validationFailed(name, `Give \`${name}\` once.`);
    seen.add(name);
    if (paginated && (name === "limit" || name === "cursor")) continue;
    values[name] = value;
  }
  return parseInput(schema, values);
}
