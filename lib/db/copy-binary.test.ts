import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";

import { rawClient } from "@/lib/db/client";
import { testCtx } from "@/lib/testing/test-context";

import { binaryCopyIn, binaryCopyOutColumn, int4Value, textValue, type BinaryCopyValue } from "./copy-binary";
import { copyOut } from "./copy-out";

const { ctx } = testCtx();

async function collect(pieces: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const all: Uint8Array[] = [];
  for await (const piece of pieces) all.push(piece);
  return Buffer.concat(all);
}

async function* each<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** Every byte value, an empty value and one of several mebibytes: what a stored file's parts can be. */
const VALUES = [
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.alloc(0),
  Buffer.alloc(3 * 1024 * 1024 + 7, "é\0\n\\\t"),
];

/** The output of a binary COPY TO STDOUT of VALUES, as PostgreSQL writes it after a binary COPY FROM STDIN of them. */
async function copiedOut(values = VALUES): Promise<Buffer> {
  const client = rawClient(ctx.db);
  await client`create table if not exists copied (n int, label text, data bytea)`;
  await client.begin(async (tx) => {
    await tx`truncate copied`;
    const rows: BinaryCopyValue[][] = values.map((value, n) => [int4Value(n), textValue(`värde ${n}`), value]);
    await pipeline(
      binaryCopyIn(each(rows)),
      await tx`copy copied (n, label, data) from stdin with (format binary)`.writable(),
    );
  });
  const labels = await client<{ label: string }[]>`select label from copied order by n`;
  expect(labels.map((row) => row.label)).toEqual(values.map((_, n) => `värde ${n}`));
  return collect(copyOut(client, "copy (select data from copied order by n) to stdout with (format binary)"));
}

describe("binary COPY", () => {
  it("bytea values go into PostgreSQL and come out of it byte for byte, every byte value included", async () => {
    const output = await copiedOut();
    expect((await collect(binaryCopyOutColumn(each([output])))).equals(Buffer.concat(VALUES))).toBe(true);
  });

  it("values read back whole however the output is cut, down to a byte at a time", async () => {
    // Cut small, the small values (a byte at a time through megabytes would only take long); cut large, all of them.
    for (const [values, sizes] of [
      [VALUES.slice(0, 2), [1, 2, 3, 5, 19]],
      [VALUES, [4096, 65_536]],
    ] as const) {
      const output = await copiedOut(values);
      for (const size of sizes) {
        const pieces: Buffer[] = [];
        for (let at = 0; at < output.byteLength; at += size) pieces.push(output.subarray(at, at + size));
        const read = await collect(binaryCopyOutColumn(each(pieces)));
        expect(read.equals(Buffer.concat(values)), `cut every ${size}`).toBe(true);
      }
    }
  });

  it("output cut short before its trailer, or not a binary COPY, is refused rather than read as a shorter file", async () => {
    const output = await copiedOut();
    await expect(collect(binaryCopyOutColumn(each([output.subarray(0, output.byteLength - 2)])))).rejects.toThrow(
      "ended before its trailer",
    );
    await expect(collect(binaryCopyOutColumn(each([output.subarray(0, 1000)])))).rejects.toThrow(
      "ended before its trailer",
    );
    await expect(collect(binaryCopyOutColumn(each([Buffer.from("email\nann@example.com\n")])))).rejects.toThrow(
      "signature",
    );
  });

  it("a reader that stops early leaves the connection it used answering, with the pool's statement timeout", async () => {
    const client = rawClient(ctx.db);
    const [pool] = await client<{ timeout: string }[]>`select current_setting('statement_timeout') as timeout`;
    const query = `copy (select decode(repeat('ab', 1024 * 1024), 'hex') from generate_series(1, 20)) to stdout with (format binary)`;
    for (let round = 0; round < 3; round++) {
      for await (const piece of copyOut(client, query)) {
        expect(piece.byteLength).toBeGreaterThan(0);
        break;
      }
    }
    // Every connection of the pool, the ones the COPYs used among them, answers and kept its limit.
    const answers = await Promise.all(
      Array.from(
        { length: 12 },
        () => client<{ timeout: string }[]>`select current_setting('statement_timeout') as timeout, pg_sleep(0.05)`,
      ),
    );
    expect(answers.map(([row]) => row!.timeout)).toEqual(Array.from({ length: 12 }, () => pool!.timeout));
    expect(pool!.timeout).not.toBe("0");
  });
});
