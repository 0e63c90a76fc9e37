import type { Caller } from "@/lib/caller";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP, rawClient } from "@/lib/db/client";
import { getTopicForCaller } from "@/lib/topics/get-topic-for-caller";
import { CONTACT_STATUS_SQL, type ContactStatus } from "./contact-status";
import type { ContactView } from "./contact-view";

export interface ContactFilters {
  status?: ContactStatus;
  topicId?: string;
}

/** As the driver returns it: the timestamp is formatted in SQL. */
type Row = Omit<ContactView, "createdAt"> & { createdAt: string };

/**
 * Newest first, keyset-paginated on id (creation order); returns up to
 * `limit + 1` rows. Plain SQL: this is the API's busiest read (see rawClient).
 */
export async function listContacts(ctx: Ctx, caller: Caller, filters: ContactFilters, page: { limit: number; afterId: string | null }): Promise<ContactView[]> {
  if (filters.topicId) await getTopicForCaller(ctx, caller, filters.topicId);
  const sql = rawClient(ctx.db);
  const status = sql.unsafe(CONTACT_STATUS_SQL);
  const rows = await sql<Row[]>`
    select id, email, first_name as "firstName", last_name as "lastName", attributes, ${status} as status,
           to_char(created_at at time zone 'UTC', ${sql.unsafe(ISO_TIMESTAMP)}) as "createdAt"
    from contacts
    where workspace_id = ${caller.workspaceId}
      ${page.afterId ? sql`and id < ${page.afterId}` : sql``}
      ${filters.status ? sql`and ${status} = ${filters.status}` : sql``}
      ${filters.topicId ? sql`and exists (select 1 from subscriptions s where s.contact_id = contacts.id and s.topic_id = ${filters.topicId} and s.state = 'subscribed')` : sql``}
    order by id desc
    limit ${page.limit + 1}`;
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}
