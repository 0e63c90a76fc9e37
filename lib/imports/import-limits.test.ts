import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";

import { userActor } from "@/lib/actor";
import { exportContactsCsv } from "@/lib/contacts/export-contacts";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { pruneImports } from "@/lib/retention/prune-imports";
import { TRANSFERS_PER_WORKSPACE } from "@/lib/runtime/transfer-slots";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { cancelImport } from "./import-actions";
import { receiveImport } from "./receive-import";

const { ctx, clock } = testCtx();

async function workspace() {
  const { workspaceId, ownerUserId } = await seedWorkspace(ctx);
  return userActor(ownerUserId, workspaceId);
}

/** A body that sends its first line and then waits until `end()`: an upload under way. */
function pendingBody() {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  let started!: () => void;
  const pulled = new Promise<void>((resolve) => (started = resolve));
  async function* body() {
    yield Buffer.from("email\n");
    started();
    await ended;
    yield Buffer.from("a@example.com\n");
  }
  return { body: body(), pulled, end };
}

afterEach(() => reloadEnv());

describe("import and export limits", () => {
  it("a workspace has at most three uploads and exports under way at once: the next is refused with too_many_transfers (429) until one ends", async () => {
    const actor = await workspace();
    const uploads = Array.from({ length: TRANSFERS_PER_WORKSPACE }, () => pendingBody());
    const received = uploads.map((upload) => receiveImport(ctx, actor, { fileName: "slow.csv", body: upload.body }));
    await Promise.all(uploads.map((upload) => upload.pulled));

    await expect(
      receiveImport(ctx, actor, { fileName: "x.csv", body: Readable.from([Buffer.from("email\nb@example.com\n")]) }),
    ).rejects.toMatchObject({
      code: "too_many_transfers",
      type: "rate_limit_error",
      status: 429,
    });
    await expect(exportContactsCsv(ctx, actor, {}).next()).rejects.toMatchObject({
      code: "too_many_transfers",
      status: 429,
    });
    // Another workspace is not held up.
    expect(
      (
        await receiveImport(ctx, await workspace(), {
          fileName: "x.csv",
          body: Readable.from([Buffer.from("email\nb@example.com\n")]),
        })
      ).rowCount,
    ).toBe(1);

    uploads[0]!.end();
    await received[0];
    const chunks = [];
    for await (const chunk of exportContactsCsv(ctx, actor, {})) chunks.push(chunk);
    expect(chunks[0]!.csv).toMatch(/^id,email/);
    for (const upload of uploads.slice(1)) upload.end();
    expect((await Promise.all(received)).map((r) => r.rowCount)).toEqual([1, 1, 1]);
  });

  it("a workspace's imports hold at most IMPORT_STORAGE_MAX_BYTES of files: past it an upload is refused with import_storage_full, and a cancelled import's file stops counting once cleaned up", async () => {
    overrideEnvForTests({ IMPORT_STORAGE_MAX_BYTES: "100" });
    const actor = await workspace();
    const file = (n: number) =>
      Readable.from([Buffer.from(`email\n${Array.from({ length: n }, (_, i) => `p${i}@example.com`).join("\n")}\n`)]);
    const first = await receiveImport(ctx, actor, { fileName: "a.csv", body: file(3) }); // 54 bytes
    await expect(receiveImport(ctx, actor, { fileName: "b.csv", body: file(3) })).rejects.toMatchObject({
      code: "import_storage_full",
      status: 413,
      param: "file",
    });
    // Refused as it arrives, not only at its end.
    await expect(receiveImport(ctx, actor, { fileName: "c.csv", body: file(100) })).rejects.toMatchObject({
      code: "import_storage_full",
    });

    await cancelImport(ctx, actor, first.importId);
    clock.advance(2 * 60 * 60 * 1000);
    await pruneImports(ctx);
    expect((await receiveImport(ctx, actor, { fileName: "b.csv", body: file(3) })).rowCount).toBe(3);
  });
});
