import "server-only";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";

import type { ContactCount } from "./contact-list-query";
import { filterConditions, type ContactFilters } from "./list-contacts";

/**
 * Past this many, the contacts table says "more than 100,000" instead of a number. Counting a
 * search or a topic, list or combined filter walks every matching row (there is no counter for
 * them); a cap keeps that walk bounded, about 0.1 s at most on a million contacts (npm run
 * bench:dashboard), where an exact count of a 500,000-person topic takes seconds and holds a
 * connection that long. Nobody plans by the exact size of a six-figure search result: a campaign's
 * audience is counted exactly on its own page.
 */
export const CONTACT_COUNT_CAP = 100_000;

/**
 * How many of the workspace's contacts the filters find, as the pages list them. With no filter, or
 * a status alone, the answer is the workspace's maintained counters (report_workspace_counters,
 * kept by the report triggers, new contacts folded in first): one row, exact at any size. Anything
 * else is counted up to the cap. The table shows it after its first page (streamed in or read
 * apart), so even a capped count never delays the rows.
 */
export async function countContacts(
  ctx: Ctx,
  actor: Actor,
  filters: ContactFilters,
  cap = CONTACT_COUNT_CAP,
): Promise<ContactCount> {
  const workspaceId = requireActorWorkspace(actor);
  const sql = rawClient(ctx.db);
  if (!filters.search && !filters.topicId && !filters.listId) {
    await foldContactCounts(ctx, workspaceId);
    const [row] = await sql<{ total: number; unsubscribed: number; bounced: number; complained: number }[]>`
      select contacts_total::int as total, contacts_unsubscribed::int as unsubscribed,
             contacts_bounced::int as bounced, contacts_complained::int as complained
      from report_workspace_counters where workspace_id = ${workspaceId}`;
    if (!row) return { count: 0, more: false };
    // Subscribed is what the other three buckets leave, as in the summary (lib/reports/get-summary.ts).
    const count = !filters.status
      ? row.total
      : filters.status === "subscribed"
        ? row.total - row.unsubscribed - row.bounced - row.complained
        : row[filters.status];
    return { count, more: false };
  }
  if (filters.topicId) await getTopicForActorOrThrow(ctx, actor, filters.topicId);
  if (filters.listId && !filters.search && !filters.topicId && !filters.status) {
    // A list alone: its members are its contacts (the key to contacts cascades), counted on
    // list_members' own key without a look-up per contact (a 100,000-member list: 0.8 s joined).
    const [members] = await sql<{ count: number }[]>`
      select count(*)::int as count from (
        select 1 from list_members where list_id = ${filters.listId} and workspace_id = ${workspaceId}
        limit ${cap + 1}) matching`;
    const count = members?.count ?? 0;
    return count > cap ? { count: cap, more: true } : { count, more: false };
  }
  // A list and a status are joined rather than checked row by row, so PostgreSQL can start from the
  // list's members (list_members' key) or hash the kept statuses: checked per row, counting a
  // 100,000-member list walked the whole workspace (0.6 s on a million, bench:dashboard).
  // Both joins find one row per contact: a member once per list, one kept status per contact.
  const members = filters.listId
    ? sql`join list_members m on m.contact_id = contacts.id and m.list_id = ${filters.listId} and m.workspace_id = ${workspaceId}`
    : sql``;
  const statuses = filters.status
    ? sql`join report_contact_statuses r on r.contact_id = contacts.id and r.status = ${filters.status}`
    : sql``;
  const [counted] = await sql<{ count: number }[]>`
    select count(*)::int as count from (
      select 1 from contacts ${members} ${statuses}
      where contacts.workspace_id = ${workspaceId}
        ${filterConditions(ctx, workspaceId, { ...filters, listId: undefined, status: undefined })}
      limit ${cap + 1}) matching`;
  const count = counted?.count ?? 0;
  return count > cap ? { count: cap, more: true } : { count, more: false };
}
