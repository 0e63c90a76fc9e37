import "server-only";

import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type postgres from "postgres";

import { attributeFromText } from "@/lib/contacts/attribute-schemas";
import { isValidEmail, normalizeEmail } from "@/lib/contacts/email-address";
import { canonicalTimeZone } from "@/lib/contacts/time-zone";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { type AttributeValue, type ImportCounts, type ImportRefusal, type imports } from "@/lib/db/schema";
import { env } from "@/lib/env";

import type { ImportField } from "./import-fields";
import { importFileBytes } from "./import-file";
import { readCsv } from "./read-csv";
import { RepeatedAddresses } from "./repeated-addresses";

const NAME_MAX = 120;

interface MappedRow {
  email: string;
  firstName: string | null;
  lastName: string | null;
  timeZone: string | null;
  attributes: Record<string, AttributeValue>;
  refusal: ImportRefusal | null;
  detail: string | null;
}

/** One record through the mapping: the address normalised, the names trimmed, the attributes typed; a bad cell refuses the row (the first bad cell says why). */
export function mapRecord(record: string[], mapping: string[], types: Map<string, ImportField["type"]>): MappedRow {
  const row: MappedRow = {
    email: "",
    firstName: null,
    lastName: null,
    timeZone: null,
    attributes: {},
    refusal: null,
    detail: null,
  };
  for (let column = 0; column < mapping.length; column++) {
    const field = mapping[column];
    if (!field) continue;
    const cell = (record[column] ?? "").trim();
    let detail: string | null = null;
    if (field === "email") {
      row.email = normalizeEmail(cell);
      if (!isValidEmail(row.email)) detail = cell ? `"${cell}" is not an email address.` : "The address is empty.";
      if (detail && !row.refusal) Object.assign(row, { refusal: "invalid_email", detail });
      continue;
    }
    if (field === "first_name" || field === "last_name") {
      if (cell.length > NAME_MAX) detail = `${field}: longer than ${NAME_MAX} characters.`;
      else if (cell) row[field === "first_name" ? "firstName" : "lastName"] = cell;
    } else if (field === "time_zone") {
      row.timeZone = cell ? canonicalTimeZone(cell) : null;
      if (cell && !row.timeZone)
        detail = `time_zone: "${cell.slice(0, 100)}" is not a time zone, such as Europe/Berlin.`;
    } else if (cell) {
      const key = field.slice("attributes.".length);
      const type = types.get(field)!;
      const value = attributeFromText(type, cell);
      if (value === undefined) detail = `${key}: "${cell.slice(0, 100)}" is not a ${type}.`;
      else row.attributes[key] = value;
    }
    if (detail && !row.refusal) Object.assign(row, { refusal: "bad_value", detail });
  }
  return row;
}

/**
 * COPY data is sent in buffers this large, each row written into one as it is
 * made. Rows joined into a string first left V8 to flatten every row's pieces
 * when the string became bytes: staging a million rows took 6.2–7.5 s of CPU,
 * 5.0–5.1 s written straight into buffers.
 */
const COPY_BUFFER_BYTES = 256 * 1024;

// COPY's text format: tab-separated, \N for null, and backslash escapes for what would break a line
// (tested first: almost no value has one, and four replacements on each of six values a row showed in profiles).
const COPY_SPECIAL = /[\\\t\n\r]/;
const copyValue = (value: string | null) =>
  value === null
    ? "\\N"
    : COPY_SPECIAL.test(value)
      ? value.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r")
      : value;

/**
 * Reads the import's file through the mapping into `import_rows` with one
 * COPY (replacing an earlier dry run's rows), then refuses every row but the
 * last for an address that occurs more than once: the last row wins. Says
 * how many rows it refused, by reason.
 */
export async function stageImportRows(
  ctx: Ctx,
  imp: typeof imports.$inferSelect,
  mapping: string[],
  fields: ImportField[],
): Promise<ImportCounts["refused"]> {
  const types = new Map(fields.map((f) => [f.key, f.type]));
  const client = rawClient(ctx.db);
  const refused: ImportCounts["refused"] = {};
  await client.begin(async (tx) => {
    // A million-row file takes longer than the pool's statement timeout; its pace is the database's, not a client's.
    await tx`set local statement_timeout = 0`;
    await tx`delete from import_rows where import_id = ${imp.id}`;
    const repeated = repeatedAddressesFor(imp.rowCount);
    /** The COPY text, a buffer at a time. */
    async function* copyText(): AsyncGenerator<Buffer | string> {
      let rowNumber = 0;
      let buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
      let used = 0;
      for await (const records of readCsv(importFileBytes(ctx, imp.id), {
        encoding: imp.encoding,
        delimiter: imp.delimiter,
      })) {
        for (const record of records) {
          rowNumber++;
          if (rowNumber === 1) continue; // the header
          const row = mapRecord(record, mapping, types);
          if (row.refusal) refused[row.refusal] = (refused[row.refusal] ?? 0) + 1;
          else repeated?.add(row.email, rowNumber);
          const line = `${imp.id}\t${rowNumber}\t${copyValue(row.email)}\t${copyValue(row.firstName)}\t${copyValue(row.lastName)}\t${copyValue(row.timeZone)}\t${copyValue(JSON.stringify(row.attributes))}\t${copyValue(row.refusal)}\t${copyValue(row.detail)}\n`;
          // A UTF-16 unit is at most three bytes of UTF-8: a line that might not fit goes to the next buffer, or alone.
          if (used + line.length * 3 > buffer.length && used > 0) {
            yield buffer.subarray(0, used);
            buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
            used = 0;
          }
          if (line.length * 3 > buffer.length) yield line;
          else used += buffer.write(line, used);
        }
      }
      if (used > 0) yield buffer.subarray(0, used);
    }
    const copy: Writable =
      await tx`copy import_rows (import_id, row_number, email, first_name, last_name, time_zone, attributes, refusal, detail) from stdin`.writable();
    // A COPY that fails mid-file (cancelled, timed out) never drains again: a writer waiting for `drain` waited
    // forever. pipeline rejects with its error instead, stops reading the file, and ends the COPY should the
    // reading fail.
    await pipeline(copyText(), copy);
    const duplicates = await refuseDuplicates(tx, imp, repeated);
    if (duplicates > 0) refused.duplicate = duplicates;
  });
  return refused;
}

/** After "Row N" in a duplicate's detail. */
const DUPLICATE_DETAIL = " has the same address: the last row for an address is the one imported.";

/**
 * How a file's repeated addresses are found: through a table of address
 * hashes for a file of up to IMPORT_HASHED_ROWS rows (64 MiB at the default),
 * by the database grouping every row for a longer one.
 */
export const repeatedAddressesFor = (rowCount: number) =>
  rowCount <= env().IMPORT_HASHED_ROWS ? new RepeatedAddresses(rowCount) : null;

/**
 * Refuses every row but the last for an address that occurs more than once.
 * With the repeats the hash table found, each refused row is read once
 * (refuseRepeats), and the rare chains of repeats that hold two addresses
 * with one hash are grouped. Without a list (no table, or more than a
 * quarter of the rows listed, which would only be a large parameter to
 * send), every row not refused is grouped.
 */
async function refuseDuplicates(
  tx: postgres.TransactionSql,
  imp: { id: string },
  repeated: RepeatedAddresses | null,
): Promise<number> {
  if (!repeated || !repeated.listable) {
    const { count } = await tx`
      update import_rows r
      set refusal = 'duplicate', detail = 'Row ' || d.winner || ${DUPLICATE_DETAIL}
      from (${losingRows(tx, imp.id, tx`refusal is null`)}) d
      where r.import_id = ${imp.id} and r.row_number = d.row`;
    return count;
  }
  const { refused, unsure } = await refuseRepeats(tx, imp.id, repeated);
  if (unsure.length === 0) return refused;
  // Found by number alone: asking for refusal is null too made the planner read every row (4 s, not 0.6 s).
  const losing = await tx<
    { row: number; winner: number; email: string }[]
  >`${losingRows(tx, imp.id, tx`row_number = any(string_to_array(${unsure.join(",")}, ',')::int[])`)}`;
  return refused + (await refuseRows(tx, imp.id, losing)).length;
}

/** Among the import's rows that `which` selects, each one a later row has the same address of, with the last such row: its winner. */
function losingRows(tx: postgres.TransactionSql, importId: string, which: postgres.PendingQuery<postgres.Row[]>) {
  return tx`
    select "row", winner, email from (
      select row_number as "row", max(row_number) over (partition by email) as winner, email from import_rows
      where import_id = ${importId} and ${which}) grouped
    where "row" <> winner`;
}

/**
 * Refuses the earlier row of each repeat (RepeatedAddresses.repeats) when
 * its address is the later row's, naming the last row of the repeat's chain
 * (the rows that came with one hash, in order). Reads only the rows it
 * refuses, where grouping the listed rows reads them all: on a million-row
 * file with 10,000 repeats, 0.5 s where grouping took 1.1–1.4 s.
 *
 * A repeat whose rows differ only shares a hash (about a hundred in a
 * million distinct addresses): its chain may hold two addresses, so its
 * refusals may name the wrong row, or miss one. Such chains' rows are
 * returned as unsure, for grouping; `refused` counts the other chains'.
 */
async function refuseRepeats(
  tx: postgres.TransactionSql,
  importId: string,
  repeated: RepeatedAddresses,
): Promise<{ refused: number; unsure: number[] }> {
  const { earlierRows, laterRows, addresses } = repeated.repeats;
  // A chain is known by its first row; walked from the last repeat back, a row's winner is its chain's last row.
  const chainOf = new Map<number, number>();
  for (let i = 0; i < earlierRows.length; i++)
    chainOf.set(laterRows[i]!, chainOf.get(earlierRows[i]!) ?? earlierRows[i]!);
  const winnerOf = new Map<number, number>();
  const pairs: { row: number; winner: number; email: string }[] = [];
  for (let i = earlierRows.length - 1; i >= 0; i--) {
    const winner = winnerOf.get(laterRows[i]!) ?? laterRows[i]!;
    winnerOf.set(earlierRows[i]!, winner);
    pairs.push({ row: earlierRows[i]!, winner, email: addresses[i]! });
  }
  const refusedRows = new Set(await refuseRows(tx, importId, pairs));
  const chainOfRow = (row: number) => chainOf.get(row) ?? row;
  const mixed = new Set(pairs.filter((pair) => !refusedRows.has(pair.row)).map((pair) => chainOfRow(pair.row)));
  const unsure = [...earlierRows, ...laterRows].filter((row) => mixed.has(chainOfRow(row)));
  return {
    refused: [...refusedRows].filter((row) => !mixed.has(chainOfRow(row))).length,
    unsure: [...new Set(unsure)],
  };
}

/**
 * Refuses each row as a duplicate of its winner, if the row's address is the
 * one given; says which rows it refused. The planner takes a recordset for a
 * hundred rows and finds each through the key; a join with a sub-select,
 * planned on the import's statistics from before the COPY, hashed every row
 * of a million-row file (0.9 s for three rows).
 */
async function refuseRows(
  tx: postgres.TransactionSql,
  importId: string,
  rows: { row: number; winner: number; email: string }[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const refused = await tx<{ row_number: number }[]>`
    update import_rows r
    set refusal = 'duplicate', detail = 'Row ' || p.winner || ${DUPLICATE_DETAIL}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as p("row" int, winner int, email text)
    where r.import_id = ${importId} and r.row_number = p.row and r.email = p.email
    returning r.row_number`;
  return refused.map((r) => r.row_number);
}
