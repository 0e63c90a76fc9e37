import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";

import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrateDatabase } from "@/lib/db/migrate";
import { resolveDataDir } from "@/lib/runtime/data-dir";

import { databaseUrl, dropDatabase, withAdmin, type TestDatabaseServer } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: TestDatabaseServer;
  }
}

/**
 * One PostgreSQL for the run: the server of DATABASE_URL when set, else a
 * throwaway embedded one. A migrated template database is made once; every
 * test file then gets its own copy of it (database-per-file.ts).
 */
export default async function setup(project: TestProject) {
  const prefix = `t${process.pid}_${Date.now().toString(36)}`;
  let adminUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (!adminUrl) {
    const dataDir = path.join(resolveDataDir({ DATA_DIR: ".data" }), `test-${prefix}`);
    const server = await startEmbeddedPostgres({
      dataDir,
      password: "test",
      // Durability is pointless for a cluster deleted after the run.
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: "300" },
    });
    adminUrl = server.url;
    stopServer = async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const template = `${prefix}_template`;
  await withAdmin(adminUrl, (sql) => sql.unsafe(`create database "${template}"`));
  await migrateDatabase(databaseUrl(adminUrl, template));
  project.provide("testDatabase", { adminUrl, template, prefix });

  return async () => {
    const leftovers = await withAdmin(
      adminUrl,
      (sql) => sql<{ datname: string }[]>`select datname from pg_database where datname like ${prefix + "%"}`,
    );
    for (const { datname } of leftovers) await dropDatabase(adminUrl, datname);
    await stopServer();
  };
}
