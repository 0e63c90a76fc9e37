import "server-only";

import { validationFailed } from "@/lib/errors";
import { readBodyCapped } from "@/lib/http/read-body-capped";

import type { SubmittedValues } from "./read-signup-form-values";

/** A signup is a few hundred bytes; this leaves room for long attribute values. */
export const FORM_BODY_MAX_BYTES = 16 * 1024;

export type FormRequestKind = "json" | "html";

/**
 * The script posts JSON and reads JSON back; a plain HTML form posts
 * urlencoded fields and is answered with a page. Anything else is refused.
 */
export async function readFormRequest(request: Request): Promise<{ kind: FormRequestKind; values: SubmittedValues }> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && type !== "application/x-www-form-urlencoded") {
    throw validationFailed("body", "Send the form as application/json or application/x-www-form-urlencoded.");
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(await readBodyCapped(request, FORM_BODY_MAX_BYTES));
  if (type === "application/x-www-form-urlencoded") {
    const values: SubmittedValues = {};
    for (const [name, value] of new URLSearchParams(text)) {
      const seen = values[name];
      values[name] = seen === undefined ? value : ([] as string[]).concat(seen, value);
    }
    return { kind: "html", values };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationFailed("body", "The body is not valid JSON.");
  }
  const valid = (value: unknown) =>
    typeof value === "string" ||
    (Array.isArray(value) && value.length <= 50 && value.every((item) => typeof item === "string"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every(valid)) {
    throw validationFailed("body", "The body must be an object of text fields (topic_ids a list of them).");
  }
  return { kind: "json", values: parsed as SubmittedValues };
}
