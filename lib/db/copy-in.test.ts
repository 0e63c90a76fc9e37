import { pipeline } from "node:stream/promises";
import { expect, it } from "vitest";

import { rawClient } from "@/lib/db/client";
import { testCtx } from "@/lib/testing/test-context";

const { ctx } = testCtx();

// postgres.js 3.4.9 forgot a COPY's end once its last row was sent: an error the server reported after
// that never reached the writer, which waited forever with its transaction open (patches/postgres+3.4.9.patch).
it("a COPY the server refuses after its last row was sent fails with the server's error instead of waiting forever, and the connection goes on", async () => {
  const client = rawClient(ctx.db);
  const copying = client.begin(async (tx) => {
    await tx`create temporary table copied (n int) on commit drop`;
    const copy = await tx`copy copied from stdin`.writable();
    async function* rows() {
      yield "1\n2\n";
      yield "not a number\n";
    }
    await pipeline(rows(), copy);
  });
  await expect(copying).rejects.toThrow('invalid input syntax for type integer: "not a number"');
  const [after] = await client`select 1 as one`;
  expect(after).toEqual({ one: 1 });
});
