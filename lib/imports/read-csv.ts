import { pipeline, Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { validationFailed } from "@/lib/errors";

export type CsvEncoding = "utf-8" | "latin1";
export const CSV_DELIMITERS = [",", ";", "\t"] as const;

/**
 * The delimiter of a file from its first line: whichever of `,` `;` and tab
 * occurs most outside quotes (a comma when none does, as for one column).
 */
export function sniffDelimiter(start: Buffer): string {
  const text = start.toString("latin1");
  const counts = new Map<string, number>(CSV_DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ",";
  for (const [delimiter, n] of counts) if (n > counts.get(best)!) best = delimiter;
  return best;
}

/**
 * Records of a CSV byte stream, parsed as the bytes arrive (the file is never
 * held whole): quoted fields, embedded newlines, a byte-order mark, rows of
 * uneven length. They come in batches of what the parser has ready, so that
 * a million rows cost a few hundred awaits rather than a million. A file that
 * is not CSV is `validation_failed` on `file`, naming the line.
 */
export async function* readCsv(bytes: AsyncIterable<Uint8Array>, options: { encoding: CsvEncoding; delimiter: string }): AsyncGenerator<string[][]> {
  const parser = parse({
    delimiter: options.delimiter,
    encoding: options.encoding === "utf-8" ? "utf8" : "latin1",
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    // A quoted field that never closes would otherwise swallow the rest of the file into memory.
    max_record_size: 1024 * 1024,
  });
  // pipeline, not pipe: a source that fails (the database, mid-file) fails the parser, and so the
  // loop below, rather than emitting an error nothing listens to, which ends the process.
  pipeline(Readable.from(bytes), parser, () => {});
  try {
    for await (const first of parser) {
      const batch: string[][] = [first as string[]];
      for (let record = parser.read(); record !== null; record = parser.read()) batch.push(record as string[]);
      yield batch;
    }
  } catch (error) {
    if (error instanceof CsvError)
      throw validationFailed("file", `This file is not CSV we can read (line ${(error as CsvError & { lines?: number }).lines ?? "?"}): ${error.message.replace(/^Invalid \w+: /, "")}`);
    throw error;
  } finally {
    parser.destroy();
  }
}

/**
 * Tracks whether a byte stream is valid UTF-8 as it passes: a file that is
 * not is read as Latin-1 (the encoding of older spreadsheet exports).
 */
export function utf8Checker() {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let valid = true;
  return {
    push(chunk: Uint8Array, last = false) {
      if (!valid) return;
      try {
        decoder.decode(chunk, { stream: !last });
      } catch {
        valid = false;
      }
    },
    get encoding(): CsvEncoding {
      return valid ? "utf-8" : "latin1";
    },
  };
}
