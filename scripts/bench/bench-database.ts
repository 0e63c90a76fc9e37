// Where a bench keeps its data: a database of its own, dropped at the end.
import { rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

/**
 * A fresh database for the bench `name`: a new one on the server of DATABASE_URL when it is set (the
 * variable then names it), else an embedded one under .data/. Call before the app's modules are
 * imported: they read the environment once. `remove()` drops it.
 */
export async function freshBenchDatabase(name: string): Promise<{ remove: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  const database = `bench_${name}_${Date.now().toString(36)}`;
  const dataDir = path.resolve(".data", `bench-${name}-${Date.now()}`);
  process.env.DATA_DIR = dataDir;
  if (serverUrl) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${database}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    process.env.DATABASE_URL = url.toString();
  }
  return {
    remove: async () => {
      if (serverUrl) {
        const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
        await admin.unsafe(`drop database if exists "${database}" with (force)`);
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
