import { sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { withTransaction } from "@/lib/context";
import { newId } from "@/lib/ids";
import { testCtx } from "@/lib/testing/test-context";

import { pipelinedTransaction } from "./pipelined-transaction";

const { ctx } = testCtx();

const workspaceExists = async (id: string) =>
  (
    (await ctx.db.execute(sql`select exists (select 1 from workspaces where id = ${id}) as found`)) as unknown as [
      { found: boolean },
    ]
  )[0].found;

it("runs its statements in order in one transaction, each seeing what the ones before it did, and answers each one's rows", async () => {
  const answers = await pipelinedTransaction(ctx.db, [
    sql`select txid_current()::text as tx`,
    sql`create temporary table pipelined (n int) on commit drop`,
    sql`insert into pipelined values (${1}), (${2})`,
    sql`select count(*)::int as n, txid_current()::text as tx, current_setting('plan_cache_mode') as plans from pipelined`,
  ]);
  expect(answers).toHaveLength(4);
  const [first, , , last] = answers.map((rows) => rows[0]) as { tx: string }[];
  expect(last).toEqual({ n: 2, tx: first!.tx, plans: "force_generic_plan" });
  // The transaction ended with the call: the next one is another.
  const [next] = await pipelinedTransaction(ctx.db, [sql`select txid_current()::text as tx`]);
  expect(next).not.toEqual([first]);
});

it("a statement that fails rolls back the ones before it, is the error thrown, and leaves its connection usable", async () => {
  const id = newId("ws");
  await expect(
    pipelinedTransaction(ctx.db, [
      sql`insert into workspaces (id, name) values (${id}, 'Rolled back')`,
      sql`select 1 / 0`,
    ]),
  ).rejects.toThrow(/division by zero/);
  expect(await workspaceExists(id)).toBe(false);
  // Every connection of the pool is handed out again in turn: none was left inside the aborted transaction.
  for (let i = 0; i < 12; i++)
    expect(await pipelinedTransaction(ctx.db, [sql`select ${i}::int as i`])).toEqual([[{ i }]]);
});

it("inside an open transaction its statements are that transaction's", async () => {
  const id = newId("ws");
  await expect(
    withTransaction(ctx, async (tx) => {
      await pipelinedTransaction(tx.db, [sql`insert into workspaces (id, name) values (${id}, 'Inner')`]);
      expect(
        (
          (await tx.db.execute(sql`select count(*)::int as n from workspaces where id = ${id}`)) as unknown as [
            { n: number },
          ]
        )[0].n,
      ).toBe(1);
      throw new Error("roll the outer transaction back");
    }),
  ).rejects.toThrow("roll the outer transaction back");
  expect(await workspaceExists(id)).toBe(false);
});
