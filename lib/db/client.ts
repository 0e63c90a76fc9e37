import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Database = PostgresJsDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Either the pool or an open transaction: domain verbs accept both. */
export type Executor = Database | Transaction;

const globalForDb = globalThis as unknown as { __db?: { url: string; db: Database; sql: postgres.Sql } };

/** The process-wide pool for DATABASE_URL (kept on globalThis so dev reloads reuse it). */
export function getDb(): Database {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the service with `npm start`, which opens the database first");
  if (globalForDb.__db?.url !== url) {
    const sql = postgres(url, { max: Number(process.env.DATABASE_POOL_SIZE || 10), onnotice: () => {} });
    globalForDb.__db = { url, sql, db: drizzle(sql, { schema }) };
  }
  return globalForDb.__db.db;
}

export async function closeDb(): Promise<void> {
  const current = globalForDb.__db;
  globalForDb.__db = undefined;
  await current?.sql.end({ timeout: 5 });
}
