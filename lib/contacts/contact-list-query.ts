import { z } from "zod";

import { CONTACT_STATUSES } from "./contact-status";

// The contacts table's search, filters, order and page, shared by the page (from its URL), the
// dashboard's JSON read and the browser's query keys.

export const CONTACT_SORTS = ["newest", "oldest", "email", "email_desc"] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

const id = z.string().trim().min(1).max(64);

export const contactListQuerySchema = z.strictObject({
  /** The address, first or last name starts with this. */
  q: z.string().trim().min(1).max(200).optional(),
  status: z.enum(CONTACT_STATUSES).optional(),
  topic: id.optional(),
  list: id.optional(),
  sort: z.enum(CONTACT_SORTS).optional(),
  /** The id of the last row of the page before. */
  after: id.optional(),
});
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

/**
 * A URL typed or edited by a person: a value that does not parse is left out
 * (the table shows everyone rather than an error page).
 */
export function readContactListQuery(raw: Record<string, string | string[] | undefined>): ContactListQuery {
  const query: Record<string, string> = {};
  for (const [name, field] of Object.entries(contactListQuerySchema.shape)) {
    const value = raw[name];
    const parsed = field.safeParse(typeof value === "string" && value.trim() !== "" ? value : undefined);
    if (parsed.success && parsed.data !== undefined) query[name] = parsed.data;
  }
  return query as ContactListQuery;
}

/** The query as URL parameters, without the empty ones: the page's URL and the JSON read's. */
export function contactListSearchParams(query: ContactListQuery): URLSearchParams {
  return new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""),
  );
}

/** One row of the contacts table as the dashboard's JSON read sends it. */
export interface ContactRow {
  id: string;
  email: string;
  name: string | null;
  status: (typeof CONTACT_STATUSES)[number];
  createdAt: string;
}

export interface ContactPage {
  rows: ContactRow[];
  /** Pass as `after` for the next page; null on the last page. */
  nextAfter: string | null;
}
