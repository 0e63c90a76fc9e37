import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";

import { databaseUrl, dropDatabase, withAdmin } from "@/lib/testing/test-database";

import { migrateDatabase, MIGRATIONS_FOLDER } from "./migrate";

const server = inject("testDatabase");
const created: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `${server.prefix}_empty_${created.length}`;
  await withAdmin(server.adminUrl, (sql) => sql.unsafe(`create database "${name}"`));
  created.push(name);
  return databaseUrl(server.adminUrl, name);
}

afterAll(async () => {
  for (const name of created) await dropDatabase(server.adminUrl, name);
});

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
  entries: unknown[];
};

describe("migrations", () => {
  it("apply from zero on an empty database and create every table of the schema", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);
    const tables = await withAdmin(
      url,
      (sql) => sql<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public'`,
    );
    const names = tables.map((t) => t.tablename);
    for (const table of [
      "workspaces",
      "users",
      "memberships",
      "workspace_billing",
      "brands",
      "sending_domains",
      "verified_addresses",
      "topics",
      "lists",
      "list_members",
      "contacts",
      "attribute_definitions",
      "subscriptions",
      "confirmation_requests",
      "suppressions",
      "api_keys",
      "campaigns",
      "sends",
      "events",
      "webhook_endpoints",
      "webhook_deliveries",
      "webhook_attempts",
      "rate_limit_windows",
    ]) {
      expect(names, table).toContain(table);
    }
    const applied = await withAdmin(url, (sql) => sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied[0]!.n).toBe(journal.entries.length);
  });

  it("are applied once: running them again, even concurrently, changes nothing", async () => {
    const url = await emptyDatabase();
    await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
    await migrateDatabase(url);
    const applied = await withAdmin(url, (sql) => sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied[0]!.n).toBe(journal.entries.length);
  });

  it("ids compare bytewise (C collation) so id order is creation order on any server", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);
    const rows = await withAdmin(
      url,
      (sql) => sql<{ collation_name: string }[]>`
      select collation_name from information_schema.columns where table_name = 'contacts' and column_name = 'id'`,
    );
    expect(rows[0]!.collation_name).toBe("C");
  });
});
