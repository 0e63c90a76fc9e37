import "server-only";

import { pipeline } from "node:stream/promises";
import type postgres from "postgres";

import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { binaryCopyIn, binaryCopyOutColumn, int4Value, textValue } from "@/lib/db/copy-binary";
import { copyOut } from "@/lib/db/copy-out";

// An import's file is kept in the database (import_file_parts), so that whichever instance runs its
// dry run or apply reads it. Its bytes go both ways in binary COPY: as statements' parameters and
// rows, each mebibyte part became two of hex text in both directions, and a million-row upload grew
// the process by about 100 MiB of those copies.

/** Stores an uploaded file, piece by piece as given (each piece a part, in order), on the upload's transaction. */
export async function storeImportFile(
  tx: postgres.TransactionSql,
  importId: string,
  pieces: AsyncIterable<Uint8Array>,
): Promise<void> {
  const id = textValue(importId);
  async function* rows() {
    let part = 0;
    for await (const data of pieces) yield [id, int4Value(part++), data];
  }
  const copy = await tx`copy import_file_parts (import_id, part, data) from stdin with (format binary)`.writable();
  await pipeline(binaryCopyIn(rows()), copy);
}

/** The file's bytes from the start, as they arrive: never more than a socket's read in memory. */
export async function* importFileBytes(ctx: Ctx, importId: string): AsyncGenerator<Uint8Array> {
  // A COPY takes no parameters: the id is a literal, its quotes doubled (standard_conforming_strings is on).
  const id = `'${importId.replaceAll("'", "''")}'`;
  yield* binaryCopyOutColumn(
    copyOut(
      rawClient(ctx.db),
      `copy (select data from import_file_parts where import_id = ${id} order by part) to stdout with (format binary)`,
    ),
  );
}
