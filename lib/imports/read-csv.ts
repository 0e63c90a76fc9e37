import Papa from "papaparse";

import type { ImportEncoding } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";

export type CsvEncoding = ImportEncoding;
export const CSV_DELIMITERS = [",", ";", "\t"] as const;

/**
 * The delimiter of a file from its first line: whichever of `,` `;` and tab
 * occurs most outside quoted fields, each read as that delimiter's file
 * would be (a comma when none does, as for one column).
 */
export function sniffDelimiter(start: Buffer): string {
  const text = start.toString("latin1");
  let best = ",";
  let most = 0;
  for (const delimiter of CSV_DELIMITERS) {
    const { delimiters } = readFirstLine(text, delimiter);
    if (delimiters > most) [best, most] = [delimiter, delimiters];
  }
  return best;
}

/**
 * The first line of a text as the parser reads it with this delimiter: a
 * quote opens a field only at its start, and in a quoted field two quotes
 * are one. Counts the delimiters outside quoted fields, and gives the line
 * break that ends the line and where it starts (null when the text ends first).
 */
function readFirstLine(
  text: string,
  delimiter: string,
): { delimiters: number; lineBreak: "\r\n" | "\n" | "\r" | null; at: number } {
  let quoted = false;
  let fieldStart = true;
  let delimiters = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char !== '"') continue;
      if (text[i + 1] === '"') i++;
      else quoted = false;
    } else if (char === '"' && fieldStart) {
      quoted = true;
    } else if (char === "\n") {
      return { delimiters, lineBreak: "\n", at: i };
    } else if (char === "\r") {
      return { delimiters, lineBreak: text[i + 1] === "\n" ? "\r\n" : "\r", at: i };
    } else if (char === delimiter) {
      delimiters++;
    }
    fieldStart = char === delimiter;
  }
  return { delimiters, lineBreak: null, at: text.length };
}

/**
 * The longest record a file may have, in characters of its fields and one
 * for each delimiter: the same limit however the file arrives in pieces.
 */
const MAX_RECORD_CHARS = 1024 * 1024;
/**
 * The most text held back for an unfinished row: a quoted field that never
 * closes would otherwise hold the rest of the file in memory. Above the
 * record limit, for a record's quotes.
 */
const MAX_HELD_CHARS = 4 * MAX_RECORD_CHARS;

/**
 * Text is parsed this many characters at a time, whatever the size of the pieces that arrive: a
 * batch's records are used and dropped before the collector next runs, where the records of a whole
 * mebibyte outlived it and were copied (a million-row dry run took 19.5 s with 1 MiB, 14.1 s with this).
 */
const PIECE_CHARS = 64 * 1024;

/**
 * Records of a CSV byte stream, parsed as the bytes arrive (the file is never
 * held whole): quoted fields, embedded newlines, a byte-order mark, rows of
 * uneven length, `\n`, `\r\n` or `\r` line breaks; empty lines are skipped.
 * They come in batches, one for each PIECE_CHARS of text, so that a million
 * rows cost a thousand awaits rather than a million. A file that is not
 * CSV, or not text (a NUL character), is `validation_failed` on `file`,
 * naming the row.
 *
 * papaparse's Parser is given the decoded text piece by piece with the
 * unfinished last row held back for the next piece, as its own streaming
 * does: it parsed a million rows in 1.1–1.6 s where csv-parse took 3.3–4.9 s.
 * A piece is at least as long as the text held back, so a long row is
 * parsed again a few times at most, however small the pieces that arrive.
 */
export async function* readCsv(
  bytes: AsyncIterable<Uint8Array>,
  options: { encoding: CsvEncoding; delimiter: string },
): AsyncGenerator<string[][]> {
  const decode = decoderFor(options.encoding);
  let parser: Papa.Parser | null = null;
  let held = ""; // the unfinished last row
  let fresh = ""; // text decoded since the last parse
  let rows = 0;
  const parse = (text: string, last: boolean): string[][] => {
    if (!parser) {
      // A UTF-8 byte-order mark read as Latin-1 (the decoder drops it from UTF-8).
      if (options.encoding === "latin1" && text.startsWith("\u00ef\u00bb\u00bf")) text = text.slice(3);
      parser = new Papa.Parser({
        delimiter: options.delimiter,
        newline: lineBreakOf(text, options.delimiter, last) ?? "\n",
        quoteChar: '"',
      });
    }
    const result = parser.parse(text, 0, !last) as {
      data: string[][];
      errors: Papa.ParseError[];
      meta: { cursor: number };
    };
    // With the last row held back, an error in it is found again when the row is whole. A stray quote in
    // a quoted field (`"Robert "Bob" Smith"`) is kept as text, as csv-parse's relax_quotes did, unless the
    // field then ran past the end of its line: that is a quote out of place, and the lines after it are not one field.
    const error = result.errors.find(
      (e) => e.row! < result.data.length && !(e.code === "InvalidQuotes" && !result.data[e.row!]!.some(hasLineBreak)),
    );
    const rowNumber = (index: number) => rows + result.data.slice(0, index).filter(isRecord).length + 1;
    if (error)
      throw notCsv(
        rowNumber(error.row!),
        error.code === "InvalidQuotes"
          ? "a quoted field's closing quote is followed by more text"
          : "a quoted field is never closed",
      );
    const long = result.data.findIndex((row) => recordChars(row) > MAX_RECORD_CHARS);
    if (long >= 0) throw notCsv(rowNumber(long), "it is longer than a mebibyte");
    if (text.includes("\0")) {
      // PostgreSQL text cannot hold a NUL (U+0000), and no text file has one: a binary file, or UTF-16 without its mark.
      const nul = result.data.findIndex((row) => row.some((field) => field.includes("\0")));
      if (nul >= 0) throw notCsv(rowNumber(nul), "it holds a NUL character (U+0000), which text never does");
    }
    held = last ? "" : text.slice(result.meta.cursor);
    if (held.length > MAX_HELD_CHARS)
      throw notCsv(
        rowNumber(result.data.length),
        "it is longer than a mebibyte (a quoted field that is never closed?)",
      );
    const records = result.data.filter(isRecord);
    rows += records.length;
    return records;
  };
  for await (const chunk of bytes) {
    fresh += decode(chunk, false);
    for (
      let size = Math.max(PIECE_CHARS, held.length);
      fresh.length >= size;
      size = Math.max(PIECE_CHARS, held.length)
    ) {
      const text = held + fresh.slice(0, size);
      fresh = fresh.slice(size);
      // The line break is read off the first line: wait for it.
      if (!parser && lineBreakOf(text, options.delimiter, false) === null && text.length <= MAX_HELD_CHARS) {
        held = text;
        continue;
      }
      const records = parse(text, false);
      if (records.length > 0) yield records;
    }
  }
  const records = parse(held + fresh + decode(new Uint8Array(0), true), true);
  if (records.length > 0) yield records;
}

const hasLineBreak = (field: string) => field.includes("\n") || field.includes("\r");

/** An empty line is no record. */
const isRecord = (row: string[]) => row.length > 1 || row[0] !== "";

/** A record's length for MAX_RECORD_CHARS: its fields and a character between each two. */
function recordChars(row: string[]): number {
  let chars = row.length - 1;
  for (const field of row) chars += field.length;
  return chars;
}

function notCsv(row: number, why: string) {
  return validationFailed("file", `This file is not CSV we can read (row ${row}): ${why}.`);
}

/**
 * The line break every row ends with, read off the first line (readFirstLine):
 * null while the text has none yet, or ends with a `\r` whose next character
 * is still to come.
 */
function lineBreakOf(text: string, delimiter: string, last: boolean): "\r\n" | "\n" | "\r" | null {
  const { lineBreak, at } = readFirstLine(text, delimiter);
  return lineBreak === "\r" && at === text.length - 1 && !last ? null : lineBreak;
}

/**
 * Bytes to text, a piece at a time: a character split between pieces waits
 * for its rest. A UTF-16 file (a spreadsheet's "Unicode text") is known by
 * its byte-order mark, whatever the encoding stored for it says (imports
 * uploaded before UTF-16 was recorded say latin1).
 */
function decoderFor(encoding: CsvEncoding): (chunk: Uint8Array, last: boolean) => string {
  const latin1 = (chunk: Uint8Array) =>
    Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
  const decoderOf = (label: string) => {
    const decoder = new TextDecoder(label); // drops a leading byte-order mark
    return (chunk: Uint8Array, last: boolean) => decoder.decode(chunk, { stream: !last });
  };
  let decode: ((chunk: Uint8Array, last: boolean) => string) | null = null;
  let head = Buffer.alloc(0);
  return (chunk, last) => {
    if (decode) return decode(chunk, last);
    head = Buffer.concat([head, chunk]);
    if (head.length < 2 && !last) return "";
    const marked = byteOrderMarkOf(head);
    decode = marked ? decoderOf(marked) : encoding === "latin1" ? latin1 : decoderOf(encoding);
    return decode(head, last);
  };
}

function byteOrderMarkOf(start: Uint8Array): "utf-16le" | "utf-16be" | null {
  if (start[0] === 0xff && start[1] === 0xfe) return "utf-16le";
  if (start[0] === 0xfe && start[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * Finds a stream's encoding as it passes: UTF-16 by its byte-order mark, else
 * UTF-8 when every byte is valid UTF-8, else Latin-1 (the encoding of older
 * spreadsheet exports).
 */
export function encodingDetector() {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let start = Buffer.alloc(0);
  let marked: "utf-16le" | "utf-16be" | null = null;
  let valid = true;
  return {
    push(chunk: Uint8Array, last = false) {
      if (start.length < 2) {
        start = Buffer.concat([start, chunk.subarray(0, 2 - start.length)]);
        if (start.length === 2) marked = byteOrderMarkOf(start);
      }
      if (!valid || marked) return;
      try {
        decoder.decode(chunk, { stream: !last });
      } catch {
        valid = false;
      }
    },
    get encoding(): CsvEncoding {
      return marked ?? (valid ? "utf-8" : "latin1");
    },
  };
}
