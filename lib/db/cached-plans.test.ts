import { sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { withTransaction } from "@/lib/context";
import { cachedPlansDb, type Executor } from "@/lib/db/client";
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
