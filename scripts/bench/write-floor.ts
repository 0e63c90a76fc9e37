// The import apply's write floor: the rows an apply writes for each imported contact, inserted bare.
//
// The COPY floor writes one row a line into an unindexed table; an applied row is a contact, its
// status row, a subscription and a contact.subscribed event, each with its table's indexes. This
// inserts those rows, made beforehand (ids, attributes, the origin's and the event's JSON), into empty
// copies of the four tables (`like … including all`: the same columns, defaults and indexes; no
// triggers and no foreign keys), a chunk a transaction, as many side by side as the apply runs
// them. No reads, no checks, no counting: what is left of the apply's time once its logic is gone. The
// contacts are written a second time into a copy with the contract's two keys only (the id and the
// address), which says what the dashboard's four indexes (pages, name search, name sort) cost.
import postgres from "postgres";

import { IMPORT_CHUNKS_SIDE_BY_SIDE } from "@/lib/imports/apply-import-chunk";

/** What one inserted table cost: the wall time of its rows, chunk by chunk, as many at a time as the apply. */
export interface WriteFloorPart {
  name: string;
  ms: number;
}

export interface WriteFloor {
  /** Rows written to each table: the file's distinct addresses (the apply refuses repeats and bad addresses). */
  rows: number;
  /** The four tables as the product has them. */
  tables: WriteFloorPart[];
  /** The tables' times added up. */
  totalMs: number;
  /** The contacts again, with the contract's two keys only. */
  contactsKeysOnly: WriteFloorPart;
}

/**
 * Inserts the apply's four rows a contact, bare, from `source` (the COPY floor's table: email,
 * first_name, last_name, plan, seats, all text), into copies that are dropped after.
 */
export async function measureWriteFloor(
  url: string,
  source: string,
  ids: { workspaceId: string; topicId: string; brandId: string },
  chunkRows: number,
): Promise<WriteFloor> {
  const sql = postgres(url, { max: IMPORT_CHUNKS_SIDE_BY_SIDE, onnotice: () => {} });
  try {
    const now = new Date().toISOString();
    const q = (value: string) => `'${value.replace(/'/g, "''")}'`;
    // Made beforehand and untimed: what the apply computes is not a write. The rows it creates, in the
    // file's order (the order its indexes take them in): not a repeat of an earlier line, a bad address or
    // value, or the address of a contact the workspace has.
    await sql.unsafe(`
      create table bench_write_floor_rows as
      select row_number() over (order by line) as n, email, first_name, last_name,
        jsonb_build_object('plan', plan, 'seats', seats::int) as attributes
      from (
        select f.*, f.ctid as line, row_number() over (partition by f.email order by f.ctid) as repeat
        from ${source} f
        where f.email like '%@%' and not exists (select from contacts c where c.workspace_id = ${q(ids.workspaceId)} and c.email = f.email)
      ) s
      where repeat = 1 and seats ~ '^[0-9]+$'`);
    await sql`create index on bench_write_floor_rows (n)`;
    await sql`vacuum analyze bench_write_floor_rows`;
    const [counted] = await sql<{ rows: number }[]>`select count(*)::int as rows from bench_write_floor_rows`;
    const rows = counted!.rows;
    for (const table of ["contacts", "report_contact_statuses", "subscriptions", "events"])
      await sql.unsafe(`create table bench_write_floor_${table} (like ${table} including all)`);
    await sql.unsafe(`create table bench_write_floor_contacts_keys (like contacts including all)`);
    // The copy's indexes have names of their own; the contract's two keys are its unique ones.
    const indexes = await sql<{ name: string; unique: boolean }[]>`
      select c.relname as name, i.indisunique as unique from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'bench_write_floor_contacts_keys'::regclass`;
    if (indexes.filter((index) => index.unique).length !== 2) throw new Error("contacts no longer has two unique keys");
    for (const index of indexes.filter((index) => !index.unique)) await sql.unsafe(`drop index ${index.name}`);
    await sql`checkpoint`;

    const ws = q(ids.workspaceId);
    const range = (from: number, to: number) => `from bench_write_floor_rows where n > ${from} and n <= ${to}`;
    const contactId = `'ct_01JBENCHWRITEFLOOR' || lpad(to_hex(n), 8, '0')`;
    const contactsInsert = (table: string) => (from: number, to: number) =>
      `insert into ${table} (id, workspace_id, email, first_name, last_name, attributes, created_at, updated_at)
       select ${contactId}, ${ws}, email, first_name, last_name, attributes, ${q(now)}, ${q(now)} ${range(from, to)}`;
    type Insert = [string, (from: number, to: number) => string];
    const tables: Insert[] = [
      ["contacts (heap + 6 indexes)", contactsInsert("bench_write_floor_contacts")],
      [
        "report_contact_statuses",
        (from, to) => `insert into bench_write_floor_report_contact_statuses (contact_id, workspace_id, status)
          select ${contactId}, ${ws}, 'subscribed' ${range(from, to)}`,
      ],
      [
        "subscriptions",
        (from, to) => `insert into bench_write_floor_subscriptions
            (id, workspace_id, contact_id, topic_id, state, source, origin, subscribed_at, created_at, updated_at)
          select 'sub_01JBENCHWRITEFLOOR' || lpad(to_hex(n), 12, '0'), ${ws}, ${contactId}, ${q(ids.topicId)}, 'subscribed', 'import',
            jsonb_build_object('kind', 'import', 'import_id', 'imp_01JBENCHWRITEFLOOR0000000', 'file_name', 'contacts.csv',
              'asserted_by_user_id', 'usr_01JBENCHWRITEFLOOR0000000', 'asserted_by', 'owner@example.com', 'asserted_at', ${q(now)}, 'row', n),
            ${q(now)}, ${q(now)}, ${q(now)} ${range(from, to)}`,
      ],
      [
        "events (contact.subscribed)",
        (from, to) => `insert into bench_write_floor_events (id, workspace_id, type, data, occurred_at, created_at)
          select 'evt_01JBENCHWRITEFLOOR' || lpad(to_hex(n), 12, '0'), ${ws}, 'contact.subscribed',
            jsonb_build_object('contact_id', ${contactId}, 'email', email, 'topic_id', ${q(ids.topicId)}, 'topic_name', 'Newsletter',
              'brand_id', ${q(ids.brandId)}, 'source', 'import', 'occurred_at', ${q(now)}),
            ${q(now)}, ${q(now)} ${range(from, to)}`,
      ],
    ];
    const timed = async ([name, insert]: Insert): Promise<WriteFloorPart> => {
      const chunks: [number, number][] = [];
      for (let from = 0; from < rows; from += chunkRows) chunks.push([from, Math.min(rows, from + chunkRows)]);
      const started = performance.now();
      const worker = async () => {
        for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) await sql.unsafe(insert(...chunk));
      };
      await Promise.all(Array.from({ length: IMPORT_CHUNKS_SIDE_BY_SIDE }, worker));
      return { name, ms: performance.now() - started };
    };
    const parts: WriteFloorPart[] = [];
    for (const table of tables) parts.push(await timed(table));
    const contactsKeysOnly = await timed([
      "contacts, the contract's 2 keys only",
      contactsInsert("bench_write_floor_contacts_keys"),
    ]);
    const totalMs = parts.reduce((sum, part) => sum + part.ms, 0);
    return { rows, tables: parts, totalMs, contactsKeysOnly };
  } finally {
    // The copies' rows would otherwise stay for the apply's checkpoints and the vacuum to walk.
    for (const table of ["rows", "contacts", "report_contact_statuses", "subscriptions", "events", "contacts_keys"])
      await sql.unsafe(`drop table if exists bench_write_floor_${table}`);
    await sql`checkpoint`;
    await sql.end();
  }
}
