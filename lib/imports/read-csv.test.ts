import { describe, expect, it } from "vitest";

import { readCsv, sniffDelimiter, type CsvEncoding } from "./read-csv";

async function* piecesOf(...parts: Buffer[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

async function recordsOf(bytes: AsyncIterable<Uint8Array>, encoding: CsvEncoding = "utf-8", delimiter = ",") {
  const records: string[][] = [];
  for await (const batch of readCsv(bytes, { encoding, delimiter })) records.push(...batch);
  return records;
}

const expected = [
  ["email", "name", "note"],
  ["ann@example.com", "Zoë “Ann”", 'says "hi", twice'],
  ["bob@example.com", "Bob\nand\r\nBo", ""],
  ["cy@example.com", "", "last"],
];

/** The records above as a file with the given line break, a byte-order mark and an empty line. */
const fileWith = (lineBreak: string) =>
  Buffer.from(
    "\uFEFF" +
      [
        "email,name,note",
        'ann@example.com,Zoë “Ann”,"says ""hi"", twice"',
        "",
        'bob@example.com,"Bob\nand\r\nBo",',
        '"cy@example.com",,"last"',
      ].join(lineBreak) +
      lineBreak,
  );

describe("CSV import: the reader", () => {
  it("a file reads the same however its bytes are split: quotes, doubled quotes, embedded line breaks, multibyte characters, a byte-order mark and an empty line, with \\n, \\r\\n or \\r line breaks", async () => {
    for (const lineBreak of ["\n", "\r\n", "\r"]) {
      const file = fileWith(lineBreak);
      expect(await recordsOf(piecesOf(file))).toEqual(expected);
      for (let at = 0; at <= file.length; at++)
        expect(
          await recordsOf(piecesOf(file.subarray(0, at), file.subarray(at))),
          `${JSON.stringify(lineBreak)} split at byte ${at}`,
        ).toEqual(expected);
      expect(await recordsOf(piecesOf(...[...file].map((byte) => Buffer.from([byte]))))).toEqual(expected);
    }
  });

  it("a file of many pieces of text reads the same: rows and quoted fields across the parser's pieces", async () => {
    const row = ["bob@example.com", 'Bob\nand\r\nBo, "the" 2nd ✓'];
    const file = Buffer.from("email,name\n" + `bob@example.com,"Bob\nand\r\nBo, ""the"" 2nd ✓"\n`.repeat(20_000));
    const records = await recordsOf(piecesOf(file));
    expect(records).toHaveLength(20_001);
    expect(records.slice(1).every((r) => r.join() === row.join())).toBe(true);
  });

  it("a last row without a line break is read", async () => {
    expect(await recordsOf(piecesOf(Buffer.from("email\nann@example.com")))).toEqual([["email"], ["ann@example.com"]]);
    expect(await recordsOf(piecesOf(Buffer.from('email\n"ann@example.com"')))).toEqual([
      ["email"],
      ["ann@example.com"],
    ]);
  });

  it("Latin-1 bytes are read as Latin-1, across pieces, with `;` and tab delimiters", async () => {
    const file = Buffer.from("email;name\nzoe@example.com;Zo\xeb\n", "latin1");
    expect(await recordsOf(piecesOf(file.subarray(0, 20), file.subarray(20)), "latin1", ";")).toEqual([
      ["email", "name"],
      ["zoe@example.com", "Zoë"],
    ]);
    expect(
      await recordsOf(piecesOf(Buffer.from("email\tname\nzoe@example.com\tZo\xeb\n", "latin1")), "latin1", "\t"),
    ).toEqual([
      ["email", "name"],
      ["zoe@example.com", "Zoë"],
    ]);
  });

  it("a UTF-16 file is known by its byte-order mark, whatever the encoding found at upload", async () => {
    const text = "email\tname\r\nzoe@example.com\tZoë “Z”\r\n";
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const be = Buffer.from(le.map((_, i) => le[i ^ 1]!));
    for (const file of [le, be])
      for (let at = 0; at <= file.length; at++)
        expect(await recordsOf(piecesOf(file.subarray(0, at), file.subarray(at)), "latin1", "\t")).toEqual([
          ["email", "name"],
          ["zoe@example.com", "Zoë “Z”"],
        ]);
  });

  it("a Latin-1 file that starts with a UTF-8 byte-order mark is read without it", async () => {
    expect(
      await recordsOf(piecesOf(Buffer.from("\xef\xbb\xbfemail\nzo\xeb@example.com\n", "latin1")), "latin1"),
    ).toEqual([["email"], ["zoë@example.com"]]);
  });

  it("the line break is read off the first line as the parser reads quotes: a quote inside a header name does not open a field", async () => {
    for (const lineBreak of ["\r\n", "\r"]) {
      const file = Buffer.from(['email,size 5"', "a@example.com,1", "", "b@example.com,2", ""].join(lineBreak));
      expect(await recordsOf(piecesOf(file)), JSON.stringify(lineBreak)).toEqual([
        ["email", 'size 5"'],
        ["a@example.com", "1"],
        ["b@example.com", "2"],
      ]);
    }
  });

  it("a stray quote inside a quoted field is kept as text, as long as the field ends on its line", async () => {
    expect(
      await recordsOf(piecesOf(Buffer.from('email,name\nann@example.com,"Robert "Bob" Smith"\nbob@example.com,Bob\n'))),
    ).toEqual([
      ["email", "name"],
      ["ann@example.com", 'Robert "Bob" Smith'],
      ["bob@example.com", "Bob"],
    ]);
  });

  it("the delimiter is the one of `,` `;` and tab the first line has most of outside quoted fields, quotes read as the parser reads them", () => {
    const delimiterOf = (text: string) => sniffDelimiter(Buffer.from(text));
    expect(delimiterOf('"last, first, middle";email;plan\na;b;c\n')).toBe(";");
    expect(delimiterOf('size 5";email;plan\r\na;b;c\r\n')).toBe(";");
    expect(delimiterOf("email\tname, with comma\tplan\n")).toBe("\t");
    expect(delimiterOf("email\nann@example.com\n")).toBe(",");
    expect(delimiterOf("email,name;x\n")).toBe(",");
  });

  it("a quote never closed or closed in the middle of a field is not CSV, naming the row", async () => {
    await expect(recordsOf(piecesOf(Buffer.from('email\nann@example.com\n"bob@example.com\n')))).rejects.toMatchObject({
      code: "validation_failed",
      param: "file",
      message: expect.stringContaining("(row 3): a quoted field is never closed"),
    });
    await expect(
      recordsOf(piecesOf(Buffer.from('email\n"ann"@example.com\nbob@example.com\n"cy@example.com"\n'))),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("(row 2): a quoted field's closing quote is followed by more text"),
    });
  });

  it("a record longer than a mebibyte is refused however the file arrives in pieces", async () => {
    const file = Buffer.from(`email,note\nann@example.com,${"x".repeat(1024 * 1024 + 10_000)}\nbob@example.com,\n`);
    for (const size of [1024 * 1024, 10_000, 64 * 1024, file.length]) {
      const pieces = Array.from({ length: Math.ceil(file.length / size) }, (_, i) =>
        file.subarray(i * size, (i + 1) * size),
      );
      await expect(recordsOf(piecesOf(...pieces)), `pieces of ${size} bytes`).rejects.toMatchObject({
        code: "validation_failed",
        message: expect.stringContaining("(row 2): it is longer than a mebibyte"),
      });
    }
    const justUnder = Buffer.from(`email,note\nann@example.com,${"x".repeat(1024 * 1024 - 16)}\n`);
    expect(await recordsOf(piecesOf(justUnder.subarray(0, 10_000), justUnder.subarray(10_000)))).toHaveLength(2);
  });

  it("a row longer than a mebibyte is refused as it arrives rather than held", async () => {
    const piece = Buffer.from("x".repeat(64 * 1024));
    let given = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('email\n"');
      for (;;) {
        given++;
        yield piece;
      }
    }
    await expect(recordsOf(endless())).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("(row 2): it is longer than a mebibyte"),
    });
    // Refused within a few mebibytes of text held back, not after the whole stream.
    expect(given).toBeLessThan(160);
  });
});
