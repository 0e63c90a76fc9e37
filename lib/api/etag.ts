import { createHash } from "node:crypto";

import type { RouteResult } from "./api-route";

/** Every report answer, 200 or 304: caches may keep it but must ask again before each use. */
export const REVALIDATE = "private, max-age=0, must-revalidate";

/**
 * A weak ETag over what the answer is made of (source versions, scope,
 * parameters), so it can be computed without computing the answer. Weak
 * because `as_of` differs between two answers with the same figures.
 */
export function makeEtag(parts: readonly unknown[]): string {
  return `W/"${createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 27)}"`;
}

/** RFC 9110 weak comparison against a list of tags, or `*`. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** 304 with no body when the client holds the current answer; else the answer built now. */
export async function conditionalAnswer(
  ifNoneMatch: string | null,
  etag: string,
  build: () => Promise<unknown>,
): Promise<RouteResult> {
  const headers = { ETag: etag, "Cache-Control": REVALIDATE };
  if (etagMatches(ifNoneMatch, etag)) return { status: 304, body: null, headers };
  return { body: await build(), headers };
}
