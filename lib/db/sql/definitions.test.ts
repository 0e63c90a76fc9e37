import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";

import { withAdmin } from "@/lib/testing/test-database";

const SQL_DIR = fileURLToPath(new URL(".", import.meta.url));
const SCRATCH = "sql_home";

/**
 * Every function, view and trigger of a schema as PostgreSQL prints it back, keyed by name. Printed
 * with only that schema on the search path, so names in it read the same from either schema once
 * the schema's own prefix (on function and trigger-table names) is dropped.
 */
async function definitions(tx: postgres.TransactionSql, schema: string): Promise<Record<string, string>> {
  await tx.unsafe(`set local search_path to ${schema}`);
  const rows = await tx<{ name: string; definition: string }[]>`
    select 'function ' || p.proname as name, pg_get_functiondef(p.oid) as definition
      from pg_proc p where p.pronamespace = ${schema}::regnamespace
    union all
    select 'view ' || c.relname, pg_get_viewdef(c.oid)
      from pg_class c where c.relnamespace = ${schema}::regnamespace and c.relkind = 'v'
    union all
    select 'trigger ' || t.tgname || ' on ' || c.relname, pg_get_triggerdef(t.oid)
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = ${schema}::regnamespace and not t.tgisinternal`;
  return Object.fromEntries(rows.map((row) => [row.name, row.definition.replaceAll(`${schema}.`, "")]));
}

describe("lib/db/sql/", () => {
  it("matches the migrated database: each function, view and trigger there is defined here, as the migrations left it", async () => {
    const files = readdirSync(SQL_DIR).filter((name) => name.endsWith(".sql"));
    const { migrated, home } = await withAdmin(process.env.DATABASE_URL!, (sql) =>
      sql.begin(async (tx) => {
        // The files' definitions go into a scratch schema over empty copies of the tables, so both
        // sides are printed by PostgreSQL itself and formatting outside function bodies never differs.
        await tx.unsafe(`create schema ${SCRATCH}`);
        const tables = await tx<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public'`;
        for (const { tablename } of tables)
          await tx.unsafe(`create table ${SCRATCH}."${tablename}" (like public."${tablename}")`);
        await tx.unsafe(`set local search_path to ${SCRATCH}`);
        for (const file of files) await tx.unsafe(readFileSync(`${SQL_DIR}/${file}`, "utf8"));
        const result = { migrated: await definitions(tx, "public"), home: await definitions(tx, SCRATCH) };
        await tx.unsafe(`drop schema ${SCRATCH} cascade`);
        return result;
      }),
    );
    expect(Object.keys(migrated).length).toBeGreaterThan(0);
    expect(home).toEqual(migrated);
  });
});
