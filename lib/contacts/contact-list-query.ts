import { z } from "zod";

import type { AttributeValue } from "@/lib/db/schema/contacts";

import { CONTACT_STATUSES } from "./contact-status";

// The contacts table's search, filters, order, columns and page, shared by the page (from its URL),
// the dashboard's JSON reads and the browser's query keys.

/**
 * `newest`, `oldest`, `email` and `email_desc` are in links already shared: they stay. Each order
 * is a keyset on a unique key (lib/contacts/list-contacts.ts), so paging never skips or repeats.
 */
export const CONTACT_SORTS = [
  "newest",
  "oldest",
  "email",
  "email_desc",
  "name",
  "name_desc",
  "status",
  "status_desc",
] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

const id = z.string().trim().min(1).max(64);

/** Attribute keys as define-attribute takes them; the table shows at most this many extra columns. */
const ATTRIBUTE_KEY = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_ATTRIBUTE_COLUMNS = 12;

/**
 * `columns=plan,city`: the custom attributes shown as extra columns, in the order given. What is
 * not a key is dropped here, and keys the workspace has not defined by `shownAttributeColumns`.
 */
const columns = z
  .string()
  .max(2000)
  .transform((value) =>
    [...new Set(value.split(",").map((key) => key.trim()))]
      .filter((key) => ATTRIBUTE_KEY.test(key))
      .slice(0, MAX_ATTRIBUTE_COLUMNS),
  );

export const contactListQuerySchema = z.strictObject({
  /** The address, first or last name starts with this. */
  q: z.string().trim().min(1).max(200).optional(),
  status: z.enum(CONTACT_STATUSES).optional(),
  topic: id.optional(),
  list: id.optional(),
  sort: z.enum(CONTACT_SORTS).optional(),
  columns: columns.optional(),
  /** The id of the last row of the page before. */
  after: id.optional(),
});
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

/** What the total counts: the search and filters, not the order, the columns or the page. */
export const contactCountQuerySchema = contactListQuerySchema.pick({ q: true, status: true, topic: true, list: true });
export type ContactCountQuery = z.infer<typeof contactCountQuerySchema>;

/** The page's size in the dashboard: a ticked selection holds at most one page. */
export const MAX_PICKED_CONTACTS = 100;

/**
 * The export's query: the table's filters, or `ids=con_…,con_…`, the contacts ticked on the page.
 * Ids are kept as given (unknown or another workspace's select nothing).
 */
export const contactExportQuerySchema = contactCountQuerySchema.extend({
  ids: z
    .string()
    .max(MAX_PICKED_CONTACTS * 65)
    .transform((value) => [...new Set(value.split(",").map((part) => part.trim()))].filter(Boolean))
    .pipe(z.array(id).min(1, "ids: tick at least one contact.").max(MAX_PICKED_CONTACTS))
    .optional(),
});
export type ContactExportQuery = z.infer<typeof contactExportQuerySchema>;

export function contactCountQuery({ q, status, topic, list }: ContactListQuery): ContactCountQuery {
  return Object.fromEntries(
    Object.entries({ q, status, topic, list }).filter((entry) => entry[1] !== undefined),
  ) as ContactCountQuery;
}

/**
 * A URL typed or edited by a person: a value that does not parse is left out
 * (the table shows everyone rather than an error page).
 */
export function readContactListQuery(raw: Record<string, string | string[] | undefined>): ContactListQuery {
  const query: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(contactListQuerySchema.shape)) {
    const value = raw[name];
    const parsed = field.safeParse(typeof value === "string" && value.trim() !== "" ? value : undefined);
    if (parsed.success && parsed.data !== undefined && !(Array.isArray(parsed.data) && parsed.data.length === 0))
      query[name] = parsed.data;
  }
  return query as ContactListQuery;
}

/** The query as URL parameters, without the empty ones: the page's URL and the JSON reads'. */
export function contactListSearchParams(query: Partial<ContactListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === "string" && value !== "") params.set(name, value);
    else if (Array.isArray(value) && value.length > 0) params.set(name, value.join(","));
  }
  return params;
}

/** The chosen columns the workspace has defined, in the order chosen: a key since removed is not shown. */
export function shownAttributeColumns<T extends { key: string }>(chosen: string[] | undefined, defined: T[]): T[] {
  const byKey = new Map(defined.map((definition) => [definition.key, definition]));
  return (chosen ?? []).flatMap((key) => byKey.get(key) ?? []);
}

/** One row of the contacts table as the dashboard's JSON read sends it. */
export interface ContactRow {
  id: string;
  email: string;
  name: string | null;
  status: (typeof CONTACT_STATUSES)[number];
  createdAt: string;
  /** The contact's custom attributes (only keys the workspace defined are ever stored). */
  attributes: Record<string, AttributeValue>;
}

export interface ContactPage {
  rows: ContactRow[];
  /** Pass as `after` for the next page; null on the last page. */
  nextAfter: string | null;
}

/** How many contacts the filters find; past the cap, only that there are more (see count-contacts.ts). */
export interface ContactCount {
  count: number;
  /** There are more than `count`, which is then the cap. */
  more: boolean;
}
