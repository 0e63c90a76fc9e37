import "server-only";

import { sql as drizzleSql, type SQL } from "drizzle-orm";
import type postgres from "postgres";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { cachedPlansClient, ISO_TIMESTAMP, rawClient } from "@/lib/db/client";
import { CONTACT_NAME_KEY_SQL } from "@/lib/db/schema/contacts";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";

import type { ContactSort } from "./contact-list-query";
import { CONTACT_STATUS_SQL, type ContactStatus } from "./contact-status";
import type { ContactView } from "./contact-view";

export interface ContactFilters {
  status?: ContactStatus;
  topicId?: string;
  /** Dashboard only: members of this list of the workspace. */
  listId?: string;
  /** Dashboard only: the address, first or last name starts with this (case-insensitive). */
  search?: string;
}

/** `%` and `_` typed in a search are letters, not wildcards. */
export function prefixPattern(search: string): string {
  return `${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** As the driver returns it: the timestamp is formatted in SQL. */
type Row = Omit<ContactView, "createdAt"> & { createdAt: string };

export interface ContactPageRequest {
  limit: number;
  /** The last row of the page before. */
  afterId: string | null;
  /** Newest first unless told (the API's order); the dashboard also sorts by address, name and status. */
  sort?: ContactSort;
}

/**
 * Keyset-paginated in the order asked (see contactPage); returns up to `limit + 1` rows. Plain SQL: this is the API's
 * busiest read (see rawClient).
 */
export async function listContacts(
  ctx: Ctx,
  actor: Actor,
  filters: ContactFilters,
  page: ContactPageRequest,
): Promise<ContactView[]> {
  const sql = rawClient(ctx.db);
  const { from } = await contactPage(ctx, actor, filters, page);
  const rows = await sql<Row[]>`
    select contacts.id, email, first_name as "firstName", last_name as "lastName", attributes, ${sql.unsafe(CONTACT_STATUS_SQL)} as status,
           to_char(created_at at time zone 'UTC', ${sql.unsafe(ISO_TIMESTAMP)}) as "createdAt"
    ${from}`;
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}

/**
 * A page for the API as PostgreSQL serialized it: the contacts' JSON objects (serializeContact's
 * fields, in its order), newest first and joined by commas; whether more follow; the page's last id
 * for the cursor.
 */
export interface ContactPageJson {
  data: string;
  hasMore: boolean;
  lastId: string | null;
}

/**
 * The same page for the API as one value: the route writes the text out instead of parsing a hundred
 * rows into objects and serializing them again, or decoding a hundred rows at all. The query reads
 * one row past the page, only to tell that there is more.
 */
export async function listContactsJson(
  ctx: Ctx,
  actor: Actor,
  filters: ContactFilters,
  page: Omit<ContactPageRequest, "sort">,
): Promise<ContactPageJson> {
  const sql = rawClient(ctx.db);
  const { from } = await contactPage(ctx, actor, filters, { ...page, sort: "newest" });
  // Unfiltered, the page walks the workspace's (workspace, id) index whatever its size: planned once
  // per connection (cachedPlansClient). A filter's best plan depends on the workspace: planned each time.
  const planned =
    filters.status || filters.topicId || filters.listId || filters.search ? sql : cachedPlansClient(ctx.db);
  const [json] = await planned<{ data: string | null; rows: number; lastId: string | null }[]>`
    select string_agg(p.json, ',' order by p.n) filter (where p.n <= ${page.limit}) as data,
           count(*)::int as rows,
           min(p.id) filter (where p.n <= ${page.limit}) as "lastId"
    from (select c.id, row_to_json(c)::text as json, row_number() over (order by c.id desc) as n
          from (select id, email, first_name, last_name, ${sql.unsafe(CONTACT_STATUS_SQL)} as status, attributes,
                       to_char(created_at at time zone 'UTC', ${sql.unsafe(ISO_TIMESTAMP)}) as created_at
                ${from}) c) p`;
  return { data: json!.data ?? "", hasMore: json!.rows > page.limit, lastId: json!.lastId };
}

/**
 * `from … where … order by … limit …` of a page of the workspace's contacts. Every order is a
 * keyset on a unique key, each walked along an index: id (creation order); the address (unique in
 * a workspace); (nameless, name, id) on contacts_workspace_name_sort_idx; (status, id) on
 * report_contact_statuses_workspace_status_idx, alphabetical as the badges read. A page starts after
 * the cursor row's key, read first; a cursor row deleted meanwhile ends the list.
 */
async function contactPage(ctx: Ctx, actor: Actor, filters: ContactFilters, page: ContactPageRequest) {
  const workspaceId = requireActorWorkspace(actor);
  if (filters.topicId) await getTopicForActorOrThrow(ctx, actor, filters.topicId);
  const sql = rawClient(ctx.db);
  const sort = page.sort ?? "newest";
  const desc = sort === "newest" || sort.endsWith("_desc");
  const than = sql.unsafe(desc ? "<" : ">");
  const direction = sql.unsafe(desc ? "desc" : "asc");
  const nameKey = sql.unsafe(CONTACT_NAME_KEY_SQL);
  const bySort = sort === "newest" || sort === "oldest" ? "id" : sort.replace("_desc", "");
  const after = !page.afterId
    ? sql``
    : bySort === "id"
      ? sql`and contacts.id ${than} ${page.afterId}`
      : bySort === "email"
        ? sql`and email ${than} (select a.email from contacts a where a.id = ${page.afterId} and a.workspace_id = ${workspaceId})`
        : (await afterKey(ctx, workspaceId, page.afterId, bySort === "name" ? "name" : "status", desc)).condition;
  const order = {
    id: sql`contacts.id ${direction}`,
    email: sql`email ${direction}`,
    name: sql`(${nameKey} = '') ${direction}, ${nameKey} ${direction}, contacts.id ${direction}`,
    status: sql`r.status ${direction}, r.contact_id ${direction}`,
  }[bySort as "id" | "email" | "name" | "status"];
  // Every contact has its kept status (the report triggers write it with the contact), so the join keeps them all.
  const join =
    bySort === "status"
      ? sql`join report_contact_statuses r on r.contact_id = contacts.id and r.workspace_id = ${workspaceId}`
      : sql``;
  const from = sql`
    from contacts ${join}
    where contacts.workspace_id = ${workspaceId}
      ${after}
      ${filterConditions(ctx, workspaceId, filters)}
    order by ${order}
    limit ${page.limit + 1}`;
  return { from };
}

/**
 * The keyset condition after the cursor row for the name and status orders, from the row's own key.
 * Wrapped in an object: a query fragment is a thenable, and returning it bare from an async function would run it.
 */
async function afterKey(ctx: Ctx, workspaceId: string, afterId: string, by: "name" | "status", desc: boolean) {
  const sql = rawClient(ctx.db);
  const than = sql.unsafe(desc ? "<" : ">");
  const nameKey = sql.unsafe(CONTACT_NAME_KEY_SQL);
  const [cursor] = await sql<{ nameless: boolean; name: string; status: string | null }[]>`
    select (${nameKey} = '') as nameless, ${nameKey} as name, ${sql.unsafe(CONTACT_STATUS_SQL)} as status
    from contacts where id = ${afterId} and workspace_id = ${workspaceId}`;
  if (!cursor || (by === "status" && cursor.status === null)) return { condition: sql`and false` };
  return {
    condition:
      by === "name"
        ? sql`and ((${nameKey} = ''), ${nameKey}, contacts.id) ${than} (${cursor.nameless}, ${cursor.name}, ${afterId})`
        : sql`and (r.status, r.contact_id) ${than} (${cursor.status}, ${afterId})`,
  };
}

/**
 * The filters' conditions (`and …`), for a page and for the count alike (count-contacts.ts), so the
 * total counts exactly the rows the pages show. On the driver's client (outside transactions); the
 * bulk actions take the same conditions as Drizzle SQL (filterConditionsSql) for their chunks'
 * transactions.
 */
export function filterConditions(ctx: Ctx, workspaceId: string, filters: ContactFilters) {
  const sql = rawClient(ctx.db);
  return conditionsWith(
    (strings, ...values) => sql(strings, ...(values as postgres.ParameterOrFragment<never>[])),
    (text) => sql.unsafe(text),
    workspaceId,
    filters,
  );
}

/** filterConditions as Drizzle SQL, to run in a transaction: the same text, the same rule. */
export function filterConditionsSql(workspaceId: string, filters: ContactFilters): SQL {
  return conditionsWith(drizzleSql, (text) => drizzleSql.raw(text), workspaceId, filters);
}

/** The one text of the filters' conditions, written with either tag (both nest fragments and bind values). */
function conditionsWith<F>(
  sql: (strings: TemplateStringsArray, ...values: unknown[]) => F,
  verbatim: (text: string) => F,
  workspaceId: string,
  filters: ContactFilters,
): F {
  const status = verbatim(CONTACT_STATUS_SQL);
  return sql`
      ${filters.status ? sql`and ${status} = ${filters.status}` : sql``}
      ${filters.topicId ? sql`and exists (select 1 from subscriptions s where s.contact_id = contacts.id and s.topic_id = ${filters.topicId} and s.state = 'subscribed')` : sql``}
      ${filters.listId ? sql`and exists (select 1 from list_members m where m.contact_id = contacts.id and m.list_id = ${filters.listId} and m.workspace_id = ${workspaceId})` : sql``}
      ${filters.search ? sql`and (email like ${prefixPattern(filters.search)} or lower(first_name) like ${prefixPattern(filters.search)} or lower(last_name) like ${prefixPattern(filters.search)})` : sql``}`;
}
