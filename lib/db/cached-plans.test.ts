import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { expect, it } from "vitest";

import { withTransaction } from "@/lib/context";
import {
  cachedPlansClient,
  cachedPlansDb,
  closeListeningConnection,
  countersClient,
  openListeningConnection,
  type Executor,
} from "@/lib/db/client";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

const planMode = async (db: Executor) =>
  ((await db.execute(sql`select current_setting('plan_cache_mode') as mode`)) as unknown as [{ mode: string }])[0].mode;

it("a statement by key runs on the cached-plans pool outside a transaction, planned once per connection, and the main pool plans each call", async () => {
  expect(await planMode(cachedPlansDb(ctx.db))).toBe("force_generic_plan");
  expect(await planMode(ctx.db)).toBe("force_custom_plan");
});

it("inside a transaction a statement by key runs in that transaction, and a transaction opened on the cached-plans pool runs there", async () => {
  await withTransaction(ctx, async (tx) => {
    expect(cachedPlansDb(tx.db)).toBe(tx.db);
    await tx.db.execute(sql`create temporary table only_in_this_transaction (n int) on commit drop`);
    await expect(cachedPlansDb(tx.db).execute(sql`select count(*) from only_in_this_transaction`)).resolves.toEqual([
      { count: "0" },
    ]);
  });
  await withTransaction({ ...ctx, db: cachedPlansDb(ctx.db) }, async (tx) => {
    expect(await planMode(tx.db)).toBe("force_generic_plan");
  });
});

/**
 * The connection kinds that plan every statement once and never scan a table: each entry hands a
 * client of its kind to `work` (the listening connection opened for it and closed after).
 */
const BY_KEY_CONNECTIONS: [string, <T>(work: (client: postgres.Sql) => Promise<T>) => Promise<T>][] = [
  ["the cached-plans pool", (work) => work(cachedPlansClient(ctx.db))],
  ["the counters' pool", (work) => work(countersClient(ctx.db))],
  [
    "the listening connection",
    async (work) => {
      const listening = openListeningConnection({ onnotify: () => {}, onclose: () => {} });
      try {
        return await work(listening);
      } finally {
        await closeListeningConnection(listening);
      }
    },
  ],
];

/**
 * Runs `work` on one connection of `client` reserved for it, then deallocates the one statement it
 * prepared (`statement`): the pool's own prepared statements on the connection stay as the pool knows them.
 */
async function onReservedConnection<T>(
  client: postgres.Sql,
  statement: string,
  work: (connection: postgres.ReservedSql) => Promise<T>,
): Promise<T> {
  const connection = await client.reserve();
  try {
    return await work(connection);
  } finally {
    await connection.unsafe(`deallocate ${statement}`).catch(() => {}); // not there if the test failed before preparing it
    connection.release();
  }
}

/** How a statement by key prepared on `client` was planned over six calls: custom plans (one per call) and generic ones. */
function plansOverSixCalls(client: postgres.Sql): Promise<{ custom: number; generic: number }> {
  return onReservedConnection(client, "planned_once", async (connection) => {
    await connection.unsafe(`prepare planned_once(text) as select count(*) from api_keys where key_hash = $1`);
    for (let i = 0; i < 6; i++) await connection.unsafe(`execute planned_once('no such key')`);
    const [plans] = await connection.unsafe<{ custom: number; generic: number }[]>(
      `select custom_plans::int as custom, generic_plans::int as generic from pg_prepared_statements where name = 'planned_once'`,
    );
    return plans!;
  });
}

it.each(BY_KEY_CONNECTIONS)(
  "a statement prepared on %s is planned once per connection, not at every call",
  async (_, onConnection) => {
    expect(await onConnection(plansOverSixCalls)).toEqual({ custom: 0, generic: 6 });
  },
);

/** The plan a statement by key is first given on `client`, and what it is once its table has grown. */
function planAfterGrowth(client: postgres.Sql): Promise<string> {
  return onReservedConnection(client, "by_key", async (connection) => {
    try {
      await connection.unsafe(`create temporary table grows (k text primary key, v int)`);
      await connection.unsafe(`insert into grows values ('first', 1)`);
      await connection.unsafe(`analyze grows`);
      await connection.unsafe(`prepare by_key(text) as select v from grows where k = $1`);
      // Six calls: by then even PostgreSQL's default (`auto`) has settled on a generic plan, made while the table held a row.
      for (let i = 0; i < 6; i++) await connection.unsafe(`execute by_key('first')`);
      await connection.unsafe(`insert into grows select 'k' || n, n from generate_series(1, 20000) n`);
      const plan = await connection.unsafe<{ "QUERY PLAN": string }[]>(`explain execute by_key('k7')`);
      return plan.map((line) => line["QUERY PLAN"]).join("\n");
    } finally {
      await connection.unsafe(`drop table if exists grows`);
    }
  });
}

it.each(BY_KEY_CONNECTIONS)(
  "a plan made on %s while a table was small still reaches its rows by the key once the table has grown",
  async (_, onConnection) => {
    expect(await onConnection(planAfterGrowth)).toMatch(/Index (Only )?Scan using grows_pkey/);
  },
);
