import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { imports } from "@/lib/db/schema";
import { bytesOf, importTestFixture } from "@/lib/testing/import-fixture";

import { getImportRowOrThrow } from "./get-import";
import { importFileBytes } from "./import-file";
import { readCsv } from "./read-csv";
import { receiveImport } from "./receive-import";

const { ctx, workspace, importCsv, contactOf } = importTestFixture();

describe("CSV import: reading the file", () => {
  it("reads quoted fields, embedded newlines, a byte-order mark and the `;` delimiter", async () => {
    const w = await workspace();
    const csv = '\uFEFFemail;first;last\n"ann@example.com";"Ann";"Lee; Jr"\nbob@example.com;"Bo\nBob";Brown\n';
    const { applied, status } = await importCsv(w, csv);
    expect(status).toBe("completed");
    expect(applied).toMatchObject({ rows: 2, created: 2, refused: {} });
    expect(await contactOf(w, "ann@example.com")).toMatchObject({ firstName: "Ann", lastName: "Lee; Jr" });
    expect(await contactOf(w, "bob@example.com")).toMatchObject({ firstName: "Bo\nBob" });
  });

  it("reads tab-separated Latin-1 files", async () => {
    const w = await workspace();
    const csv = Buffer.from("email\tfirst\nzoe@example.com\tZo\xeb\n", "latin1");
    const { importId } = await receiveImport(ctx, w.actor, { fileName: "old.csv", body: bytesOf(csv) });
    const imp = await getImportRowOrThrow(ctx, w.actor, importId);
    expect(imp).toMatchObject({
      encoding: "latin1",
      delimiter: "\t",
      header: ["email", "first"],
      preview: [["zoe@example.com", "Zoë"]],
      rowCount: 1,
    });
  });

  it("reads a UTF-16 file with its byte-order mark, a spreadsheet's Unicode text, and records it as UTF-16", async () => {
    const w = await workspace();
    const csv = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("email\tfirst\r\nzoe@example.com\tZoë\r\n", "utf16le"),
    ]);
    const { importId } = await receiveImport(ctx, w.actor, { fileName: "unicode.txt", body: bytesOf(csv) });
    expect(await getImportRowOrThrow(ctx, w.actor, importId)).toMatchObject({
      encoding: "utf-16le",
      delimiter: "\t",
      header: ["email", "first"],
      preview: [["zoe@example.com", "Zoë"]],
      rowCount: 1,
    });
    const bigEndian = Buffer.from("\ufeffemail\nzoe@example.com\n", "utf16le").swap16();
    const { importId: other } = await receiveImport(ctx, w.actor, {
      fileName: "unicode-be.txt",
      body: bytesOf(bigEndian),
    });
    expect(await getImportRowOrThrow(ctx, w.actor, other)).toMatchObject({
      encoding: "utf-16be",
      header: ["email"],
      preview: [["zoe@example.com"]],
      rowCount: 1,
    });
  });

  it("the upload is parsed as it arrives, across chunk boundaries, and counts rows", async () => {
    const w = await workspace();
    const { importId, rowCount } = await receiveImport(ctx, w.actor, {
      fileName: "split.csv",
      body: bytesOf("em", "ail,first\nx@exa", "mple.com,X\n", 'y@example.com,"Y\n', 'Y"\n'),
    });
    expect(rowCount).toBe(2);
    expect((await getImportRowOrThrow(ctx, w.actor, importId)).preview).toEqual([
      ["x@example.com", "X"],
      ["y@example.com", "Y\nY"],
    ]);
  });

  it("a file of very short rows is read whole, with its header and five preview rows, however many rows its first mebibyte holds", async () => {
    const w = await workspace();
    // About 150,000 rows in the first mebibyte: more than one call can take as arguments.
    const { importId, rowCount } = await receiveImport(ctx, w.actor, {
      fileName: "short.csv",
      body: bytesOf("email\n" + "a@b.co\n".repeat(200_000)),
    });
    expect(rowCount).toBe(200_000);
    expect(await getImportRowOrThrow(ctx, w.actor, importId)).toMatchObject({
      header: ["email"],
      preview: Array(5).fill(["a@b.co"]),
    });
  });

  it("the stored file reads back byte for byte across its mebibyte parts, whatever its bytes", async () => {
    const w = await workspace();
    const rows = Array.from({ length: 60_000 }, (_, i) => `p${i}@example.com,Zo\xeb ${i},"a;b\\c\td"\r\n`).join("");
    const file = Buffer.from(`email,name,note\r\n${rows}`, "latin1");
    expect(file.byteLength).toBeGreaterThan(2 * 1024 * 1024);
    const { importId, rowCount } = await receiveImport(ctx, w.actor, { fileName: "big.csv", body: bytesOf(file) });
    expect(rowCount).toBe(60_000);
    const [stored] = await ctx.db.execute<{ parts: number }>(
      sql`select count(*)::int as parts from import_file_parts where import_id = ${importId}`,
    );
    expect(stored?.parts).toBe(Math.ceil(file.byteLength / (1024 * 1024)));
    const read: Uint8Array[] = [];
    for await (const piece of importFileBytes(ctx, importId)) read.push(piece);
    expect(Buffer.concat(read).equals(file)).toBe(true);
  });

  it("a file whose stored bytes fail mid-file fails its reading with that error, and nothing else", async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from("email\nx@example.com\n");
      throw new Error("the database went away");
    }
    const read = async () => {
      for await (const _batch of readCsv(failing(), { encoding: "utf-8", delimiter: "," }));
    };
    await expect(read()).rejects.toThrow("the database went away");
  });

  it("an empty file, a header alone, a file over the size cap and a broken quote are refused and nothing is kept", async () => {
    const w = await workspace();
    await expect(receiveImport(ctx, w.actor, { fileName: "e.csv", body: bytesOf() })).rejects.toMatchObject({
      code: "validation_failed",
      param: "file",
    });
    await expect(receiveImport(ctx, w.actor, { fileName: "h.csv", body: bytesOf("email\n") })).rejects.toMatchObject({
      code: "validation_failed",
      param: "file",
    });
    await expect(
      receiveImport(ctx, w.actor, { fileName: "big.csv", body: bytesOf("email\n", "a@example.com\n"), maxBytes: 10 }),
    ).rejects.toMatchObject({ code: "payload_too_large" });
    await expect(
      receiveImport(ctx, w.actor, { fileName: "q.csv", body: bytesOf('email\n"a@example.com\n') }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "file" });
    expect(await ctx.db.select().from(imports).where(eq(imports.workspaceId, w.workspaceId))).toHaveLength(0);
  });
});

describe("CSV import: a NUL character", () => {
  it("a file holding a NUL character (U+0000), which PostgreSQL text cannot hold, is refused at upload naming its row, in the header, the first rows or deep in the file; nothing is kept", async () => {
    const w = await workspace();
    const rows = Array.from({ length: 3000 }, (_, i) => `p${i}@example.com,Name${i}`);
    const files = {
      1: "email,fir\u0000st\nx@example.com,A\n",
      2: "email,first\nx@example.com,A\u0000B\n",
      2002: ["email,first", ...rows.slice(0, 2000), "deep@example.com\u0000,Name", ...rows.slice(2000)].join("\n"),
    };
    for (const [row, csv] of Object.entries(files)) {
      await expect(
        receiveImport(ctx, w.actor, { fileName: "nul.csv", body: bytesOf(csv) }),
        `row ${row}`,
      ).rejects.toMatchObject({
        code: "validation_failed",
        param: "file",
        message: expect.stringContaining(`(row ${row}): it holds a NUL character (U+0000)`),
      });
    }
    expect(await ctx.db.select().from(imports).where(eq(imports.workspaceId, w.workspaceId))).toHaveLength(0);
  });
});
