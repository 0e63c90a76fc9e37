import type postgres from "postgres";

/** What a refused request may still write, by design; everything else must be left as it was. */
export interface ChecksumExclusions {
  /** Whole tables: `rate_limit_windows` counts refused requests too (a hammering key stays out). */
  tables: string[];
  /** `table.column`: `api_keys.last_used_at` is touched by any authenticated call, refused or not. */
  columns: string[];
}

export const BOOKKEEPING: ChecksumExclusions = { tables: ["rate_limit_windows"], columns: ["api_keys.last_used_at"] };

/** Row count and digest of one table. */
export type TableChecksums = Record<string, { rows: number; md5: string }>;

/**
 * Every table of the public schema, counted and digested in PostgreSQL: the
 * md5 of its rows as JSON, in a stable order. One round trip, so it can run
 * before and after every request of a fuzz run.
 */
export async function checksumTables(
  sql: postgres.Sql,
  exclusions: ChecksumExclusions = BOOKKEEPING,
): Promise<TableChecksums> {
  const tables = await sql<
    { name: string }[]
  >`select tablename as name from pg_tables where schemaname = 'public' order by tablename`;
  const parts = tables
    .filter(({ name }) => !exclusions.tables.includes(name))
    .map(({ name }) => {
      const dropped = exclusions.columns
        .filter((column) => column.startsWith(`${name}.`))
        .map((column) => `'${column.slice(name.length + 1)}'`);
      const row = dropped.length ? `(to_jsonb(t) - array[${dropped.join(", ")}]::text[])::text` : "to_jsonb(t)::text";
      return `select '${name}' as name, count(*)::int as rows, coalesce(md5(string_agg(${row}, E'\\n' order by ${row})), '') as md5 from public."${name}" t`;
    });
  const rows = await sql.unsafe<{ name: string; rows: number; md5: string }[]>(parts.join("\nunion all\n"));
  return Object.fromEntries(rows.map(({ name, rows: count, md5 }) => [name, { rows: count, md5 }]));
}

/** The tables whose rows differ, with the row counts before and after. */
export function changedTables(
  before: TableChecksums,
  after: TableChecksums,
): { table: string; rowsBefore: number; rowsAfter: number }[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names
    .filter((name) => before[name]?.md5 !== after[name]?.md5 || before[name]?.rows !== after[name]?.rows)
    .map((table) => ({ table, rowsBefore: before[table]?.rows ?? 0, rowsAfter: after[table]?.rows ?? 0 }));
}
