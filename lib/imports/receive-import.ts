import "server-only";

import { once } from "node:events";
import { PassThrough } from "node:stream";
import { sql } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { transactionClient } from "@/lib/db/client";
import { imports } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { validationFailed } from "@/lib/errors";
import { payloadTooLarge } from "@/lib/http/read-body-capped";
import { newId } from "@/lib/ids";
import { collectGarbageAfter } from "@/lib/runtime/collect-garbage";
import { Spool } from "@/lib/runtime/spool";
import { takeTransferSlot } from "@/lib/runtime/transfer-slots";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import { storeImportFile } from "./import-file";
import { importStorageFull, importStorageUsed } from "./import-storage";
import { encodingDetector, readCsv, sniffDelimiter } from "./read-csv";

export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;
const PART_BYTES = 1024 * 1024;
const PREVIEW_ROWS = 5;

export interface ReceivedImport {
  importId: string;
  rowCount: number;
}

/**
 * Takes an uploaded CSV file into the workspace: spooled to disk as it
 * arrives and parsed on the way to count its rows, find its delimiter and
 * encoding and keep its header and first rows for the mapping, then stored
 * in parts. Nothing is kept unless the whole file arrived and parsed: an
 * empty file, one without data rows, one that is not CSV or one over 1 GiB
 * is refused, as is one that would take the workspace's imports past
 * IMPORT_STORAGE_MAX_BYTES of files (`import_storage_full`) or a fourth
 * transfer at once (`too_many_transfers`).
 */
export async function receiveImport(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: { fileName: string; body: AsyncIterable<Uint8Array>; maxBytes?: number },
): Promise<ReceivedImport> {
  const maxBytes = input.maxBytes ?? MAX_IMPORT_BYTES;
  const storageBytes = env().IMPORT_STORAGE_MAX_BYTES;
  const fileName = input.fileName.trim().slice(0, 255) || "contacts.csv";
  await checkWorkspaceWritable(ctx, actor.workspaceId);
  const storageUsed = await importStorageUsed(ctx.db, actor.workspaceId);
  if (storageUsed >= storageBytes) throw importStorageFull(storageBytes);
  const release = takeTransferSlot(actor.workspaceId);
  // The body arrives at the client's pace (a slow link, or on purpose): it goes to a spool file first, with no
  // database connection held, and into the database afterwards in one transaction at the disk's pace.
  const spool = await Spool.open();
  try {
    const detected = encodingDetector();
    let head: Buffer | null = null;
    let delimiter = ",";
    let records = 0;
    let total = 0;

    // The parser reads what the loop below passes it, at its own pace, and counts records.
    const parserInput = new PassThrough();
    let counting: Promise<void> | null = null;
    const startCounting = () => {
      counting = (async () => {
        for await (const batch of readCsv(parserInput, { encoding: "utf-8", delimiter })) records += batch.length;
      })();
      // Handled when awaited below; this keeps an early failure from going unobserved meanwhile.
      counting.catch(() => undefined);
    };
    const feed = async (chunk: Buffer) => {
      if (!parserInput.write(chunk)) await Promise.race([once(parserInput, "drain"), counting]);
    };

    let early: Buffer[] = [];
    for await (const raw of input.body) {
      const chunk = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      total += chunk.byteLength;
      if (total > maxBytes) throw payloadTooLarge(maxBytes);
      if (storageUsed + total > storageBytes) throw importStorageFull(storageBytes);
      detected.push(chunk);
      await spool.write(chunk);
      if (!counting) {
        // The delimiter is read off the first line: wait for it (or 64 KiB) before parsing starts.
        early.push(chunk);
        const start = Buffer.concat(early);
        if (!start.includes(10) && start.byteLength < 64 * 1024) continue;
        head = start;
        delimiter = sniffDelimiter(start);
        startCounting();
        await feed(start);
        early = [];
        continue;
      }
      if (head!.byteLength < PART_BYTES) head = Buffer.concat([head!, chunk]);
      await feed(chunk);
    }
    detected.push(new Uint8Array(0), true);
    if (total === 0) throw validationFailed("file", "The file is empty.");
    if (!counting) {
      head = Buffer.concat(early);
      delimiter = sniffDelimiter(head);
      startCounting();
      await feed(head);
    }
    parserInput.end();
    await counting;

    // The header and the preview's rows; a batch can hold thousands of short records.
    const firstRows: string[][] = [];
    for await (const batch of readCsv(bufferSource(head!), { encoding: detected.encoding, delimiter })) {
      firstRows.push(...batch.slice(0, PREVIEW_ROWS + 1 - firstRows.length));
      if (firstRows.length > PREVIEW_ROWS) break;
    }
    const [header = [], ...preview] = firstRows;
    if (records < 2)
      throw validationFailed(
        "file",
        "The file has no rows below its header: the first line names the columns, each line after it is a contact.",
      );
    spool.finish();

    const received = await withTransaction(ctx, async (tx) => {
      // Uploads of one workspace that ran side by side take turns here, so that together they stay under the cap.
      await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-storage:${actor.workspaceId}`}))`);
      if ((await importStorageUsed(tx.db, actor.workspaceId)) + total > storageBytes)
        throw importStorageFull(storageBytes);
      const importId = newId("imp");
      const now = tx.clock.now();
      await tx.db.insert(imports).values({
        id: importId,
        workspaceId: actor.workspaceId,
        createdBy: actor.kind === "user" ? actor.userId : null,
        fileName,
        byteSize: total,
        encoding: detected.encoding,
        delimiter,
        header: header.map((h) => h.trim()),
        preview,
        rowCount: records - 1,
        status: "uploaded",
        createdAt: now,
        updatedAt: now,
      });
      await storeImportFile(transactionClient(tx.db), importId, spool.read(PART_BYTES));
      return { importId, rowCount: records - 1 };
    });
    collectGarbageAfter(total);
    return received;
  } finally {
    spool.finish();
    await spool.close();
    release();
  }
}

async function* bufferSource(buffer: Buffer): AsyncGenerator<Uint8Array> {
  yield buffer;
}
