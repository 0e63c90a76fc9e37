import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP, rawClient } from "@/lib/db/client";
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
  /** Newest first unless told (the API's order); the dashboard also sorts by address. */
  sort?: ContactSort;
}

/**
 * Keyset-paginated, on id (creation order) or on the address (unique in a
 * workspace); returns up to `limit + 1` rows. Plain SQL: this is the API's
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
    select id, email, first_name as "firstName", last_name as "lastName", attributes, ${sql.unsafe(CONTACT_STATUS_SQL)} as status,
           to_char(created_at at time zone 'UTC', ${sql.unsafe(ISO_TIMESTAMP)}) as "createdAt"
    ${from}`;
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}

/** A contact as the API shows it, serialized by PostgreSQL, with its id for the cursor. */
export interface ContactJson {
  id: string;
  json: string;
}

/**
 * The same page for the API, each contact already in its JSON form
 * (serializeContact's fields, in its order): the list route joins the texts
 * instead of parsing a hundred rows into objects and serializing them again,
 * which was most of its time.
 */
export async function listContactsJson(
  ctx: Ctx,
  actor: Actor,
  filters: ContactFilters,
  page: ContactPageRequest,
): Promise<ContactJson[]> {
  const sql = rawClient(ctx.db);
  const { from, order } = await contactPage(ctx, actor, filters, page);
  return sql<ContactJson[]>`
    select c.id, row_to_json(c)::text as json
    from (select id, email, first_name, last_name, ${sql.unsafe(CONTACT_STATUS_SQL)} as status, attributes,
                 to_char(created_at at time zone 'UTC', ${sql.unsafe(ISO_TIMESTAMP)}) as created_at
          ${from}) c
    order by ${order}`;
}

/** `from … where … order by … limit …` of a page of the workspace's contacts, and its order. */
async function contactPage(ctx: Ctx, actor: Actor, filters: ContactFilters, page: ContactPageRequest) {
  const workspaceId = requireActorWorkspace(actor);
  if (filters.topicId) await getTopicForActorOrThrow(ctx, actor, filters.topicId);
  const sql = rawClient(ctx.db);
  const status = sql.unsafe(CONTACT_STATUS_SQL);
  const sort = page.sort ?? "newest";
  // The address sorts page after the row it was given; a row deleted meanwhile ends the list.
  const afterEmail = sql`(select a.email from contacts a where a.id = ${page.afterId} and a.workspace_id = ${workspaceId})`;
  const after = !page.afterId
    ? sql``
    : sort === "newest"
      ? sql`and id < ${page.afterId}`
      : sort === "oldest"
        ? sql`and id > ${page.afterId}`
        : sort === "email"
          ? sql`and email > ${afterEmail}`
          : sql`and email < ${afterEmail}`;
  const order = { newest: sql`id desc`, oldest: sql`id asc`, email: sql`email asc`, email_desc: sql`email desc` }[sort];
  const from = sql`
    from contacts
    where workspace_id = ${workspaceId}
      ${after}
      ${filters.status ? sql`and ${status} = ${filters.status}` : sql``}
      ${filters.topicId ? sql`and exists (select 1 from subscriptions s where s.contact_id = contacts.id and s.topic_id = ${filters.topicId} and s.state = 'subscribed')` : sql``}
      ${filters.listId ? sql`and exists (select 1 from list_members m where m.contact_id = contacts.id and m.list_id = ${filters.listId} and m.workspace_id = ${workspaceId})` : sql``}
      ${filters.search ? sql`and (email like ${prefixPattern(filters.search)} or lower(first_name) like ${prefixPattern(filters.search)} or lower(last_name) like ${prefixPattern(filters.search)})` : sql``}
    order by ${order}
    limit ${page.limit + 1}`;
  return { from, order };
}
