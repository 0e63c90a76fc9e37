import "server-only";
import { once } from "node:events";
import type { Writable } from "node:stream";
import type postgres from "postgres";
import { asc, eq, gt, and } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { attributeFromText } from "@/lib/contacts/attributes";
import { isValidEmail, normalizeEmail } from "@/lib/contacts/email-address";
import { rawClient } from "@/lib/db/client";
import { env } from "@/lib/env";
import { importFileParts, type AttributeValue, type ImportRefusal, type imports } from "@/lib/db/schema";
import type { ImportField } from "./import-fields";
import { readCsv } from "./read-csv";
import { RepeatedAddresses } from "./repeated-addresses";

const NAME_MAX = 120;

/** The file's bytes part by part: never more than one part in memory. */
export async function* importFileBytes(ctx: Ctx, importId: string): AsyncGenerator<Uint8Array> {
  let after = -1;
  for (;;) {
    const [part] = await ctx.db
      .select({ part: importFileParts.part, data: importFileParts.data })
      .from(importFileParts)
      .where(and(eq(importFileParts.importId, importId), gt(importFileParts.part, after)))
      .orderBy(asc(importFileParts.part))
      .limit(1);
    if (!part) return;
    after = part.part;
    yield part.data;
  }
}

interface MappedRow {
  email: string;
  firstName: string | null;
  lastName: string | null;
  attributes: Record<string, AttributeValue>;
  refusal: ImportRefusal | null;
  detail: string | null;
}

/** One record through the mapping: the address normalised, the names trimmed, the attributes typed; a bad cell refuses the row (the first bad cell says why). */
export function mapRecord(record: string[], mapping: string[], types: Map<string, ImportField["type"]>): MappedRow {
  const row: MappedRow = { email: "", firstName: null, lastName: null, attributes: {}, refusal: null, detail: null };
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

/** COPY text is sent in pieces this long: the rows of a piece are garbage by the collector's next run (see PIECE_CHARS in read-csv). */
const COPY_BATCH_CHARS = 64 * 1024;

// COPY's text format: tab-separated, \N for null, and backslash escapes for what would break a line
// (tested first: almost no value has one, and four replacements on each of six values a row showed in profiles).
const COPY_SPECIAL = /[\\\t\n\r]/;
const copyText = (value: string | null) => (value === null ? "\\N" : COPY_SPECIAL.test(value) ? value.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r") : value);

/**
 * Reads the import's file through the mapping into `import_rows` with one
 * COPY (replacing an earlier dry run's rows), then refuses every row but the
 * last for an address that occurs more than once: the last row wins.
 */
export async function stageImportRows(ctx: Ctx, imp: typeof imports.$inferSelect, mapping: string[], fields: ImportField[]): Promise<void> {
  const types = new Map(fields.map((f) => [f.key, f.type]));
  const client = rawClient(ctx.db);
  await client.begin(async (tx) => {
    await tx`delete from import_rows where import_id = ${imp.id}`;
    const copy: Writable = await tx`copy import_rows (import_id, row_number, email, first_name, last_name, attributes, refusal, detail) from stdin`.writable();
    const finished = once(copy, "finish");
    const repeated = repeatedAddressesFor(imp.rowCount);
    let rowNumber = 0;
    let batch = "";
    for await (const records of readCsv(importFileBytes(ctx, imp.id), { encoding: imp.encoding, delimiter: imp.delimiter })) {
      for (const record of records) {
        rowNumber++;
        if (rowNumber === 1) continue; // the header
        const row = mapRecord(record, mapping, types);
        if (!row.refusal) repeated?.add(row.email, rowNumber);
        batch += `${imp.id}\t${rowNumber}\t${copyText(row.email)}\t${copyText(row.firstName)}\t${copyText(row.lastName)}\t${copyText(JSON.stringify(row.attributes))}\t${copyText(row.refusal)}\t${copyText(row.detail)}\n`;
      }
      if (batch.length > COPY_BATCH_CHARS) {
        if (!copy.write(batch)) await once(copy, "drain");
        batch = "";
      }
    }
    copy.end(batch);
    await finished;
    await refuseDuplicates(tx, imp, repeated);
  });
}

/**
 * How a file's repeated addresses are found: through a table of address
 * hashes for a file of up to IMPORT_HASHED_ROWS rows (64 MiB at the default),
 * by the database grouping every row for a longer one.
 */
export const repeatedAddressesFor = (rowCount: number) => (rowCount <= env().IMPORT_HASHED_ROWS ? new RepeatedAddresses(rowCount) : null);

/**
 * Refuses every row but the last for an address that occurs more than once.
 * Only the listed rows are grouped, found by row number: grouping every row of
 * a million took longer than reading and mapping them. Without a list (no
 * table, or more than a quarter of the rows listed, which would only be a
 * large parameter to send), every row not refused is grouped.
 */
async function refuseDuplicates(tx: postgres.TransactionSql, imp: { id: string; rowCount: number }, repeated: RepeatedAddresses | null): Promise<void> {
  const listed = repeated && repeated.rows.length <= imp.rowCount / 4 ? repeated.rows : null;
  if (listed?.length === 0) return;
  // Listed rows were not refused when listed; asking again here made the planner read every row (4 s, not 0.6 s).
  const grouped = listed ? tx`row_number = any(string_to_array(${listed.join(",")}, ',')::int[])` : tx`refusal is null`;
  await tx`
    update import_rows r
    set refusal = 'duplicate', detail = 'Row ' || d.winner || ' has the same address: the last row for an address is the one imported.'
    from (select row_number, max(row_number) over (partition by email) as winner from import_rows
          where import_id = ${imp.id} and ${grouped}) d
    where r.import_id = ${imp.id} and r.row_number = d.row_number and d.row_number <> d.winner`;
}
