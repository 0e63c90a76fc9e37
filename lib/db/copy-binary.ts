/**
 * PostgreSQL's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html, "Binary
 * Format"), for moving bytea values as the bytes they are. Through a statement's parameters or its
 * rows, postgres-js moves bytea as hex text: a mebibyte of a file became two of text each way, and
 * their copies were what a million-row upload's memory grew by (about 100 MiB over the process).
 */

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** The signature, the flags (none) and the length of the header extension (none). */
const HEADER = Buffer.concat([SIGNATURE, Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);

export type BinaryCopyValue = Uint8Array | null;

/** A 32-bit integer column's value. */
export function int4Value(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
}

/** A text column's value. */
export const textValue = (value: string): Buffer => Buffer.from(value, "utf8");

/**
 * The bytes of a binary COPY FROM STDIN: its header, each row's values in
 * the statement's column order, its trailer. A value is passed on as it is,
 * not copied into a larger buffer.
 */
export async function* binaryCopyIn(rows: AsyncIterable<BinaryCopyValue[]>): AsyncGenerator<Uint8Array> {
  yield HEADER;
  for await (const values of rows) {
    const fields = Buffer.alloc(2);
    fields.writeInt16BE(values.length);
    yield fields;
    for (const value of values) {
      yield int4Value(value === null ? -1 : value.byteLength);
      if (value !== null && value.byteLength > 0) yield value;
    }
  }
  yield TRAILER;
}

/**
 * The values of a binary COPY TO STDOUT of one non-null column, read as the
 * output arrives: each value's bytes in order, in pieces as they came (a
 * value is never gathered whole). Refuses output that is not such a COPY or
 * that ends before its trailer.
 */
export async function* binaryCopyOutColumn(output: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  // What the reader expects next: the header, a row's field count, a value's length, or nothing after the trailer.
  let expecting: "header" | "row" | "length" | "end" = "header";
  const sizes = { header: HEADER.byteLength, row: 2, length: 4 };
  let held = Buffer.alloc(0);
  let valueLeft = 0;
  let skipLeft = 0;
  for await (const chunk of output) {
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (data.byteLength > 0) {
      if (skipLeft > 0 || valueLeft > 0) {
        const piece = data.subarray(0, skipLeft || valueLeft);
        data = data.subarray(piece.byteLength);
        if (skipLeft > 0) skipLeft -= piece.byteLength;
        else {
          valueLeft -= piece.byteLength;
          yield piece;
        }
        continue;
      }
      if (expecting === "end") throw new Error("Binary COPY output continues after its trailer.");
      const size = sizes[expecting];
      const take = Math.min(size - held.byteLength, data.byteLength);
      held = Buffer.concat([held, data.subarray(0, take)]);
      data = data.subarray(take);
      if (held.byteLength < size) continue;
      const header = held;
      held = Buffer.alloc(0);
      if (expecting === "header") {
        if (!header.subarray(0, SIGNATURE.byteLength).equals(SIGNATURE))
          throw new Error("Not a binary COPY: its signature is missing.");
        skipLeft = header.readInt32BE(SIGNATURE.byteLength + 4);
        expecting = "row";
      } else if (expecting === "row") {
        const fields = header.readInt16BE(0);
        if (fields === -1) expecting = "end";
        else if (fields !== 1) throw new Error(`Binary COPY of one column has a row of ${fields} fields.`);
        else expecting = "length";
      } else {
        const length = header.readInt32BE(0);
        if (length < 0) throw new Error("Binary COPY of a non-null column has a null value.");
        valueLeft = length;
        expecting = "row";
      }
    }
  }
  if (expecting !== "end" || valueLeft > 0) throw new Error("Binary COPY output ended before its trailer.");
}
