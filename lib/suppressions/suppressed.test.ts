import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { createSuppression } from "./create-suppression";
import { notSuppressedSql, suppressedAmong, suppressedSql } from "./suppressed";

const { ctx } = testCtx();

const addresses = ["ann@blocked.example", "bob@example.com", "cy@whole-domain.example", "dee@other.example"];

/** The addresses suppressedSql blocks. */
async function blockedInSql(workspaceId: string): Promise<string[]> {
  const rows = await ctx.db.execute<{ email: string }>(sql`
    select a.email from unnest(${`{${addresses.join(",")}}`}::text[]) as a(email)
    where ${suppressedSql(workspaceId, sql`a.email`)} order by a.email`);
  return rows.map((r) => r.email);
}

/** The addresses notSuppressedSql lets through. */
async function allowedInSql(workspaceId: string): Promise<string[]> {
  const rows = await ctx.db.execute<{ email: string }>(sql`
    select a.email from unnest(${`{${addresses.join(",")}}`}::text[]) as a(email)
    where ${notSuppressedSql(workspaceId, sql`a.email`)} order by a.email`);
  return rows.map((r) => r.email);
}

describe("what a suppression blocks", () => {
  it("the query's rule, and its filter form, block what the batch check blocks, whichever kinds of suppression a workspace has: none, addresses, domains or both", async () => {
    const targets = {
      none: [],
      addresses: [{ email: "ann@blocked.example" }],
      domains: [{ domain: "whole-domain.example" }],
      both: [{ email: "ann@blocked.example" }, { domain: "whole-domain.example" }],
    };
    for (const [name, blocks] of Object.entries(targets)) {
      const { workspaceId } = await seedWorkspace(ctx);
      for (const target of blocks) await createSuppression(ctx, systemActor("test", workspaceId), target);
      const expected = [...(await suppressedAmong(ctx, workspaceId, addresses))].sort();
      expect(expected, name).toHaveLength(blocks.length);
      expect(await blockedInSql(workspaceId), name).toEqual(expected);
      expect(await allowedInSql(workspaceId), name).toEqual(addresses.filter((a) => !expected.includes(a)).sort());
    }
  });

  it("a suppression of a kind the workspace had none of is honoured by the next query", async () => {
    const { workspaceId } = await seedWorkspace(ctx);
    expect(await blockedInSql(workspaceId)).toEqual([]);
    await createSuppression(ctx, systemActor("test", workspaceId), { domain: "whole-domain.example" });
    expect(await blockedInSql(workspaceId)).toEqual(["cy@whole-domain.example"]);
    await createSuppression(ctx, systemActor("test", workspaceId), { email: "bob@example.com" });
    expect(await blockedInSql(workspaceId)).toEqual(["bob@example.com", "cy@whole-domain.example"]);
  });
});
