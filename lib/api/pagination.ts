import { ApiError } from "@/lib/errors";

import { decodeCursor, encodeCursor } from "./cursor";

export interface PageRequest {
  limit: number;
  /** Id of the last row of the previous page: rows strictly older come next. */
  afterId: string | null;
}

export interface ListBody<T> {
  data: T[];
  meta: { limit: number; has_more: boolean; next_cursor: string | null };
}

const invalidLimit = () =>
  new ApiError({
    type: "invalid_request_error",
    code: "invalid_limit",
    param: "limit",
    message: "`limit` must be an integer from 1 to 100.",
  });

/** `limit` 1..100 (default 20, never clamped) and an issued `cursor` bound to `scope`. */
export function parsePageRequest(query: URLSearchParams, scope: string): PageRequest {
  const rawLimit = query.get("limit");
  let limit = 20;
  if (rawLimit !== null) {
    if (!/^\d{1,3}$/.test(rawLimit)) throw invalidLimit();
    limit = Number(rawLimit);
    if (limit < 1 || limit > 100) throw invalidLimit();
  }
  const cursor = query.get("cursor");
  return { limit, afterId: cursor === null ? null : decodeCursor(cursor, scope) };
}

/** Rows come newest first, one more than asked: the extra one only tells that there is more. */
export function toListBody<Row extends { id: string }, T>(
  rows: Row[],
  page: PageRequest,
  scope: string,
  serialize: (row: Row) => T,
): ListBody<T> {
  const { pageRows, meta } = splitPage(rows, page, scope);
  return { data: pageRows.map(serialize), meta };
}

/** A list body from a page PostgreSQL already serialized: its rows' JSON objects joined by commas, whether more follow, and its last row's id. */
export function toListJson(
  serialized: { data: string; hasMore: boolean; lastId: string | null },
  page: PageRequest,
  scope: string,
): string {
  const { data, hasMore, lastId } = serialized;
  const meta: ListBody<unknown>["meta"] = {
    limit: page.limit,
    has_more: hasMore,
    next_cursor: hasMore && lastId ? encodeCursor(lastId, scope) : null,
  };
  return `{"data":[${data}],"meta":${JSON.stringify(meta)}}`;
}

function splitPage<Row extends { id: string }>(
  rows: Row[],
  page: PageRequest,
  scope: string,
): { pageRows: Row[]; meta: ListBody<unknown>["meta"] } {
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows.at(-1);
  return {
    pageRows,
    meta: { limit: page.limit, has_more: hasMore, next_cursor: hasMore && last ? encodeCursor(last.id, scope) : null },
  };
}
