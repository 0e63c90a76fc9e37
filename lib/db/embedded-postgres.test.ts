import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";

import { resolveDataDir } from "@/lib/runtime/data-dir";

import { startEmbeddedPostgres } from "./embedded-postgres";

// Under the project's data folder: the server runs as `postgres`, which cannot enter a 0700 temp dir.
const dataDir = path.join(resolveDataDir({ DATA_DIR: ".data" }), `embedded-test-${process.pid}-${Date.now()}`);
mkdirSync(dataDir, { recursive: true });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function query<T extends Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql.unsafe(text)) as unknown as T[];
  } finally {
    await sql.end({ timeout: 5 });
  }
}

describe("embedded PostgreSQL", () => {
  it("starts a real server in DATA_DIR, keeps data across a restart and stops cleanly", async () => {
    const first = await startEmbeddedPostgres({ dataDir, password: "pw" });
    expect(first.startedHere).toBe(true);
    await query(first.url, "create table kept (v text); insert into kept values ('still here')");
    const [row] = await query<{ dir: string }>(
      first.url,
      "select setting as dir from pg_settings where name = 'data_directory'",
    );
    expect(row?.dir).toBe(path.join(dataDir, "pg"));
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, password: "pw" });
    expect(await query(second.url, "select v from kept")).toEqual([{ v: "still here" }]);
    await second.stop();
  });

  it("a second process joins the running server instead of starting another, and leaves it running", async () => {
    const owner = await startEmbeddedPostgres({ dataDir, password: "pw" });
    const joiner = await startEmbeddedPostgres({ dataDir, password: "pw" });
    expect(joiner.startedHere).toBe(false);
    expect(new URL(joiner.url).port).toBe(new URL(owner.url).port);
    await joiner.stop();
    expect(await query(owner.url, "select 1 as one")).toEqual([{ one: 1 }]);
    await owner.stop();
  });

  it("a server left running by a killed app is adopted and stopped by the next app", async () => {
    // The owning app dies without stopping its server: nobody calls stop() on this one.
    const orphan = await startEmbeddedPostgres({ dataDir, password: "pw" });
    const adopter = await startEmbeddedPostgres({ dataDir, password: "pw", adopt: true });
    expect(adopter.startedHere).toBe(false);
    expect(adopter.url).toBe(orphan.url);
    await adopter.stop();
    await expect(query(orphan.url, "select 1")).rejects.toThrow();
    // And the data directory is usable again by a fresh start.
    const next = await startEmbeddedPostgres({ dataDir, password: "pw" });
    expect(next.startedHere).toBe(true);
    await next.stop();
  });
});
