import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { CONTACT_OPTED_OUT_SQL } from "@/lib/contacts/contact-status";
import { erasedSql } from "@/lib/contacts/erased-address";
import { mergeContactFields, mergeTimeZone, type ContactFields } from "@/lib/contacts/merge-contact-fields";
import type { Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import type { AttributeValue, ImportCounts, ImportOptions, ImportRefusal } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { suppressedSql } from "@/lib/suppressions/suppressed";

export interface ImportScope {
  id: string;
  workspaceId: string;
  options: ImportOptions;
}

/** A staged row with its contact, if the address has one; the file's values only then. */
export interface StagedRow {
  row_number: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  time_zone: string | null;
  attributes: Record<string, AttributeValue> | null;
  contact_id: string | null;
  stored_first_name: string | null;
  stored_last_name: string | null;
  stored_time_zone: string | null;
  stored_attributes: Record<string, AttributeValue> | null;
  /** Why the row is refused now, if it is (REFUSAL_DETAILS): its address suppressed, its contact opted out, or an erased person's. */
  refusal: keyof typeof REFUSAL_DETAILS | null;
}

export interface ChunkPlan {
  refusals: { rowNumber: number; refusal: ImportRefusal; detail: string }[];
  /** New contacts, each with the file's row it is made of (the row's values, as the dry run stored them). */
  creates: { id: string; rowNumber: number }[];
  updates: ({ id: string; timeZone: string | null } & ContactFields)[];
  /** Every contact the chunk keeps (created, updated or unchanged): what the topics and the list apply to. */
  contacts: { id: string; email: string; rowNumber: number }[];
  /** Subscriptions to make subscribed: none yet, or pending; with the file's row each comes from. */
  subscriptions: { contactId: string; email: string; topicId: string; rowNumber: number }[];
  counts: ImportCounts;
}

export const emptyCounts = (): ImportCounts => ({
  rows: 0,
  created: 0,
  updated: 0,
  updatedFields: {},
  unchanged: 0,
  refused: {},
  subscribed: 0,
});

/** Adds one count to another (the dry run's chunks, the apply's progress). */
export function addCounts(into: ImportCounts, more: ImportCounts): ImportCounts {
  into.rows += more.rows;
  into.created += more.created;
  into.updated += more.updated;
  into.unchanged += more.unchanged;
  into.subscribed += more.subscribed;
  for (const [field, n] of Object.entries(more.updatedFields))
    into.updatedFields[field] = (into.updatedFields[field] ?? 0) + n;
  for (const [reason, n] of Object.entries(more.refused) as [ImportRefusal, number][])
    into.refused[reason] = (into.refused[reason] ?? 0) + n;
  return into;
}

export const REFUSAL_DETAILS = {
  suppressed: "This address is suppressed: it is never mailed.",
  unsubscribed: "This person opted out. Only they can resubscribe, from a link in mail they received.",
  erased: "This person's data was erased at their request: only they can sign up again, from a signup form.",
} as const;

// The workspace policies that are the import's two choices: keep stored values (blanks are filled),
// or take the file's non-empty values.
const MERGE = { keep: "keep_existing", overwrite: "per_field" } as const;

/**
 * The rows after `from` up to `to` not refused yet, each with the contact its
 * address has (and only then the file's values, for the merge), and whether
 * the address is suppressed, its contact opted out, or it is an erased person's with no contact
 * since (erased-address.ts). The contact is looked
 * up row by row through its unique key (the sub-select's OFFSET 0 keeps the
 * planner from turning it into a join): with statistics stale after a large
 * import, a join was planned as a scan of the workspace's contacts for every
 * row (measured: 45 s for 20,000 rows instead of 0.1 s). For the apply, each
 * contact found is locked as it is read (FOR UPDATE): the apply's writes to
 * it then rest on what was read, and concurrent API writes to these
 * addresses wait for the chunk rather than interleave with it.
 * The refusal is the first that applies of suppressed, unsubscribed, erased.
 */
export function stagedRowsSql(scope: ImportScope, from: number, to: number, forApply = false): SQL {
  return sql`
    select s.*, case when s.suppressed then 'suppressed' when s.unsubscribed then 'unsubscribed' when s.erased then 'erased' end as refusal
    from (${stagedFlagsSql(scope, from, to, forApply)}) s`;
}

function stagedFlagsSql(scope: ImportScope, from: number, to: number, forApply: boolean): SQL {
  // The dry run needs the file's values only for a contact that exists (the merge); the apply makes new ones of them too.
  const value = (column: string) =>
    forApply ? sql.raw(`r.${column}`) : sql.raw(`case when contacts.id is not null then r.${column} end as ${column}`);
  return sql`
    select r.row_number, r.email, ${value("first_name")}, ${value("last_name")}, ${value("time_zone")}, ${value("attributes")},
           contacts.id as contact_id, contacts.first_name as stored_first_name, contacts.last_name as stored_last_name, contacts.time_zone as stored_time_zone, contacts.attributes as stored_attributes,
           ${suppressedSql(scope.workspaceId, sql`r.email`)} as suppressed,
           (contacts.id is not null and (${sql.raw(CONTACT_OPTED_OUT_SQL)}
             or exists (select 1 from subscriptions u where u.contact_id = contacts.id and u.topic_id = any(${idArray(scope.options.topicIds)}) and u.state = 'unsubscribed'))) as unsubscribed,
           (contacts.id is null and ${erasedSql(scope.workspaceId, sql`r.email`)}) as erased
    from import_rows r
    left join lateral (
      select c.id, c.first_name, c.last_name, c.time_zone, c.attributes, c.opted_out_at from contacts c
      where c.workspace_id = ${scope.workspaceId} and c.email = r.email offset 0 ${forApply ? sql`for update` : sql``}) contacts on true
    where r.import_id = ${scope.id} and r.row_number > ${from} and r.row_number <= ${to} and r.refusal is null`;
}

/**
 * The dry run's reading of the same rows: the plan's counts and refusals,
 * with the rows that would make new contacts counted in SQL rather than sent
 * here one by one (970,000 of a million-row file, each only to be counted).
 * Every row carries the count (the rows that need reading are joined to it);
 * when there are none, one row of nulls does.
 */
export async function previewImportChunk(
  ctx: Ctx,
  scope: ImportScope,
  from: number,
  to: number,
): Promise<Pick<ChunkPlan, "refusals" | "counts">> {
  const rows = (await ctx.db.execute(sql`
    with staged as materialized (${stagedRowsSql(scope, from, to)})
    select n.new_rows, s.*
    from (select count(*) filter (where contact_id is null and not suppressed and not erased)::int as new_rows from staged) n
    left join staged s on s.contact_id is not null or s.refusal is not null
    order by s.row_number`)) as unknown as (StagedRow & { new_rows: number })[];
  const newRows = rows[0]?.new_rows ?? 0;
  const { refusals, counts } = await planRows(
    ctx,
    scope,
    rows.filter((row) => row.row_number !== null),
  );
  counts.rows += newRows;
  counts.created += newRows;
  counts.subscribed += newRows * scope.options.topicIds.length;
  return { refusals, counts };
}

/** The plan of staged rows: refused, created, updated (and which fields) or unchanged, and the subscriptions to make. */
async function planRows(ctx: Ctx, scope: ImportScope, rows: StagedRow[]): Promise<ChunkPlan> {
  const { topicIds } = scope.options;
  const plan: ChunkPlan = {
    refusals: [],
    creates: [],
    updates: [],
    contacts: [],
    subscriptions: [],
    counts: emptyCounts(),
  };
  const counts = plan.counts;
  const existingIds: string[] = [];
  for (const row of rows) {
    counts.rows++;
    const { refusal } = row;
    if (refusal) {
      plan.refusals.push({ rowNumber: row.row_number, refusal, detail: REFUSAL_DETAILS[refusal] });
      counts.refused[refusal] = (counts.refused[refusal] ?? 0) + 1;
      continue;
    }
    if (!row.contact_id) {
      const id = newId("ct");
      plan.creates.push({ id, rowNumber: row.row_number });
      plan.contacts.push({ id, email: row.email, rowNumber: row.row_number });
      counts.created++;
      continue;
    }
    plan.contacts.push({ id: row.contact_id, email: row.email, rowNumber: row.row_number });
    existingIds.push(row.contact_id);
    mergeRow(scope, row as StagedRow & { contact_id: string }, plan.updates, counts);
  }

  if (topicIds.length > 0 && plan.contacts.length > 0) {
    // Subscribed already: nothing to do. Unsubscribed: refused above. What is left becomes subscribed.
    const held = new Set<string>();
    if (existingIds.length > 0) {
      const subscribed = (await ctx.db.execute(sql`
        select contact_id, topic_id from subscriptions
        where contact_id = any(${idArray(existingIds)}) and topic_id = any(${idArray(topicIds)}) and state = 'subscribed'`)) as unknown as {
        contact_id: string;
        topic_id: string;
      }[];
      for (const s of subscribed) held.add(`${s.contact_id} ${s.topic_id}`);
    }
    for (const contact of plan.contacts) {
      for (const topicId of topicIds) {
        if (!held.has(`${contact.id} ${topicId}`))
          plan.subscriptions.push({
            contactId: contact.id,
            email: contact.email,
            topicId,
            rowNumber: contact.rowNumber,
          });
      }
    }
    counts.subscribed = plan.subscriptions.length;
  }
  return plan;
}

/**
 * An existing contact's row under the import's merge policy: the contact's update, if anything
 * changes, added to `updates`, and the row counted as updated (with its fields) or unchanged.
 */
export function mergeRow(
  scope: ImportScope,
  row: StagedRow & { contact_id: string },
  updates: ChunkPlan["updates"],
  counts: ImportCounts,
): void {
  const incoming = {
    ...(row.first_name ? { firstName: row.first_name } : {}),
    ...(row.last_name ? { lastName: row.last_name } : {}),
    attributes: row.attributes ?? {},
  };
  const stored: ContactFields = {
    firstName: row.stored_first_name,
    lastName: row.stored_last_name,
    attributes: row.stored_attributes ?? {},
  };
  const merged = mergeContactFields(MERGE[scope.options.policy], stored, incoming);
  // A cell left empty is no time zone given: as for the names, it never clears a stored one.
  const timeZone = mergeTimeZone(MERGE[scope.options.policy], row.stored_time_zone, row.time_zone ?? undefined);
  const changed = changedFields(stored, merged);
  if (timeZone !== row.stored_time_zone) changed.push("time_zone");
  if (changed.length === 0) {
    counts.unchanged++;
    return;
  }
  updates.push({ id: row.contact_id, ...merged, timeZone });
  counts.updated++;
  for (const field of changed) counts.updatedFields[field] = (counts.updatedFields[field] ?? 0) + 1;
}

function changedFields(stored: ContactFields, merged: ContactFields): string[] {
  const changed: string[] = [];
  if (stored.firstName !== merged.firstName) changed.push("first_name");
  if (stored.lastName !== merged.lastName) changed.push("last_name");
  for (const key of new Set([...Object.keys(stored.attributes), ...Object.keys(merged.attributes)])) {
    if (stored.attributes[key] !== merged.attributes[key]) changed.push(`attributes.${key}`);
  }
  return changed;
}
