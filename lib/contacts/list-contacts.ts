import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP, rawClient } from "@/lib/db/client";
import { getTopicForActor } from "@/lib/topics/get-topic-for-actor";
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
function prefixPattern(search: string): string {
  return `${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** As the driver returns it: the timestamp is formatted in SQL. */
type Row = Omit<ContactView, "createdAt"> & { createdAt: string };

/**
 * Newest first, keyset-paginated on id (creation order); returns up to
 * `limit + 1` rows. Plain SQL: this is the API's busiest read (see rawClient).
 */
export async function listContacts(ctx: Ctx, actor: Actor, filters: ContactFilters, page: { limit: number; afterId: string | null }): Promise<ContactView[]> {
  const workspaceId = requireActorWorkspace(actor);
  if (filters.topicId) await getTopicForActor(ctx, actor, filters.topicId);
  const sql = rawClient(ctx.db);
  const status = sql.unsafe(CONTACT_STATUS_SQL);
  const rows = await sql<Row[]>`
    select id, email, first_name as "firstName", last_name as "lastName", attributes, ${status} as status,
           to_char(created_at at time zone 'UTC', ${sql.unsafe(ISO_TIMESTAMP)}) as "createdAt"
    from contacts
    where workspace_id = ${workspaceId}
      ${page.afterId ? sql`and id < ${page.afterId}` : sql``}
      ${filters.status ? sql`and ${status} = ${filters.status}` : sql``}
      ${filters.topicId ? sql`and exists (select 1 from subscriptions s where s.contact_id = contacts.id and s.topic_id = ${filters.topicId} and s.state = 'subscribed')` : sql``}
      ${filters.listId ? sql`and exists (select 1 from list_members m where m.contact_id = contacts.id and m.list_id = ${filters.listId} and m.workspace_id = ${workspaceId})` : sql``}
      ${filters.search ? sql`and (email like ${prefixPattern(filters.search)} or lower(first_name) like ${prefixPattern(filters.search)} or lower(last_name) like ${prefixPattern(filters.search)})` : sql``}
    order by id desc
    limit ${page.limit + 1}`;
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}
