import { createHmac, timingSafeEqual } from "node:crypto";

import { requiredSecret } from "@/lib/env";
import { ApiError } from "@/lib/errors";

/**
 * Opaque pagination cursors: the last row's id plus a digest of what the list
 * was (route, workspace, filters), HMAC-signed. A forged, edited or foreign
 * cursor, or one replayed with other filters, is `invalid_cursor`.
 */
function sign(payload: string): string {
  return createHmac("sha256", requiredSecret("CURSOR_SECRET")).update(payload).digest("base64url").slice(0, 22);
}

function scopeDigest(scope: string): string {
  return createHmac("sha256", requiredSecret("CURSOR_SECRET"))
    .update(`scope:${scope}`)
    .digest("base64url")
    .slice(0, 12);
}

export function encodeCursor(lastId: string, scope: string): string {
  const payload = Buffer.from(JSON.stringify({ a: lastId, s: scopeDigest(scope) })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

const invalidCursor = () =>
  new ApiError({
    type: "invalid_request_error",
    code: "invalid_cursor",
    param: "cursor",
    message: "Pass back `meta.next_cursor` unchanged, with the same filters.",
  });

export function decodeCursor(cursor: string, scope: string): string {
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw invalidCursor();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
  let parsed: { a?: unknown; s?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (typeof parsed.a !== "string" || parsed.s !== scopeDigest(scope)) throw invalidCursor();
  return parsed.a;
}
