import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { imports } from "@/lib/db/schema";
import { parseEnv } from "@/lib/env";
import { checkImport } from "@/lib/imports/check-import";
import { cancelImport } from "@/lib/imports/import-actions";
import { checkImportSchema } from "@/lib/imports/import-schemas";
import { receiveImport } from "@/lib/imports/receive-import";
import { refusedRowsCsv } from "@/lib/imports/refused-rows-csv";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { pruneImports } from "./prune-imports";

const { ctx, clock } = testCtx(new Date("2027-06-01T00:00:00.000Z"));
const HOUR = 60 * 60 * 1000;

async function held(importId: string) {
  const [row] = await ctx.db.execute<{ parts: number; staged: number; refused: number }>(sql`
    select (select count(*)::int from import_file_parts where import_id = ${importId}) as parts,
           (select count(*)::int from import_rows where import_id = ${importId} and refusal is null) as staged,
           (select count(*)::int from import_rows where import_id = ${importId} and refusal is not null) as refused`);
  return row;
}

const csvOf = async (chunks: AsyncGenerator<string>) => {
  let out = "";
  for await (const chunk of chunks) out += chunk;
  return out;
};

describe("import retention", () => {
  it("a finished import loses its file and staged rows an hour after it finished, keeps its counts and refused rows' report for RETENTION_IMPORTS_DAYS, then the report expires", async () => {
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const actor = userActor(ownerUserId, workspaceId);
    const { importId } = await receiveImport(ctx, actor, {
      fileName: "a.csv",
      body: Readable.from([Buffer.from("email\na@example.com\nnot-an-address\nb@example.com\n")]),
    });
    const checked = await checkImport(ctx, actor, importId, checkImportSchema.parse({ mapping: ["email"] }));
    await cancelImport(ctx, actor, importId);
    expect(await held(importId)).toEqual({ parts: 1, staged: 2, refused: 1 });

    // Within the hour a chunk caught by the cancel may still read its rows.
    clock.advance(HOUR / 2);
    expect(await pruneImports(ctx, parseEnv({}))).toEqual({ cancelled: 0, fileParts: 0, stagedRows: 0, reportRows: 0 });
    clock.advance(HOUR);
    expect(await pruneImports(ctx, parseEnv({}))).toEqual({ cancelled: 0, fileParts: 1, stagedRows: 2, reportRows: 0 });
    expect(await held(importId)).toEqual({ parts: 0, staged: 0, refused: 1 });
    const [kept] = await ctx.db.select({ checked: imports.checked }).from(imports).where(eq(imports.id, importId));
    expect(kept!.checked).toEqual(checked);
    expect(await csvOf(refusedRowsCsv(ctx, actor, importId))).toContain("not-an-address");

    clock.advance(30 * 24 * HOUR);
    expect(await pruneImports(ctx, parseEnv({}))).toEqual({ cancelled: 0, fileParts: 0, stagedRows: 0, reportRows: 1 });
    expect(await held(importId)).toEqual({ parts: 0, staged: 0, refused: 0 });
    await expect(csvOf(refusedRowsCsv(ctx, actor, importId))).rejects.toMatchObject({
      code: "import_report_expired",
      status: 404,
    });
  });

  it("an import left unapplied for RETENTION_IMPORTS_DAYS is cancelled, and its file deleted an hour later; a recent one is left alone", async () => {
    const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
    const actor = userActor(ownerUserId, workspaceId);
    const upload = () =>
      receiveImport(ctx, actor, { fileName: "a.csv", body: Readable.from([Buffer.from("email\na@example.com\n")]) });
    const old = await upload();
    clock.advance(20 * 24 * HOUR);
    const recent = await upload();
    clock.advance(11 * 24 * HOUR);
    expect(await pruneImports(ctx, parseEnv({}))).toMatchObject({ cancelled: 1, fileParts: 0 });
    const status = async (id: string) =>
      (await ctx.db.select({ status: imports.status }).from(imports).where(eq(imports.id, id)))[0]!.status;
    expect([await status(old.importId), await status(recent.importId)]).toEqual(["cancelled", "uploaded"]);
    clock.advance(2 * HOUR);
    expect(await pruneImports(ctx, parseEnv({}))).toMatchObject({ cancelled: 0, fileParts: 1 });
    expect((await held(old.importId))!.parts).toBe(0);
    expect((await held(recent.importId))!.parts).toBe(1);
  });
});
