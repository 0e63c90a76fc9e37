import { sql, TransactionRollbackError } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { GET } from "@/app/api/ready/route";
import { testCtx } from "@/lib/testing/test-context";

import { checkReadiness } from "./readiness";

const { ctx } = testCtx();

describe("/api/ready", () => {
  it("is ready when the database answers, every migration of this build is applied and the embedded executor runs", async () => {
    expect(await checkReadiness(ctx, () => true)).toEqual({
      ready: true,
      checks: { database: "ok", migrations: "ok", executor: "ok" },
    });
  });

  it("is not ready without the embedded executor: 503 with the failing check", async () => {
    expect(await checkReadiness(ctx, () => false)).toEqual({
      ready: false,
      checks: { database: "ok", migrations: "ok", executor: "failed" },
    });
    const response = await GET();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: "not_ready",
      checks: { database: "ok", migrations: "ok", executor: "failed" },
    });
  });

  it("is not ready when the database lacks this build's newest migration", async () => {
    await ctx.db
      .transaction(async (db) => {
        await db.execute(
          sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
        );
        expect(await checkReadiness({ ...ctx, db }, () => true)).toMatchObject({
          ready: false,
          checks: { migrations: "failed" },
        });
        db.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect((await checkReadiness(ctx, () => true)).ready).toBe(true);
  });
});
