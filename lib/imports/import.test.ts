import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { createEmbeddedExecutor } from "@/inngest/embedded/executor";
import { spawnWorker } from "@/inngest/embedded/testing/spawn-worker";
import { setWorkflowCtx } from "@/inngest/workflow-ctx";
import { systemActor, userActor } from "@/lib/actor";
import { systemClock } from "@/lib/clock";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { exportContactsCsv } from "@/lib/contacts/export-contacts";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { withTransaction, type Ctx } from "@/lib/context";
import {
  contacts,
  events,
  imports,
  listMembers,
  reportBrandCounters,
  reportWorkspaceCounters,
  subscriptions,
  topics,
} from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { createList } from "@/lib/lists/create-list";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { optOut, seedTopic, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { webhookBody } from "@/lib/webhooks/event-schemas";

import type { RowChunk } from "./applied-rows";
import { applyImportChunks, applyNextImportChunk, type ChunkOutcome } from "./apply-import-chunk";
import { checkImport } from "./check-import";
import { getImportRowOrThrow, importProgress } from "./get-import";
import { cancelImport, startImport } from "./import-actions";
import { checkImportSchema } from "./import-schemas";
import { readCsv } from "./read-csv";
import { receiveImport } from "./receive-import";
import { refusedRowsCsv } from "./refused-rows-csv";
import { repeatedAddressesFor } from "./stage-import-rows";

const { ctx, clock } = testCtx(new Date(Date.now() + 60 * 60_000));
const executor = createEmbeddedExecutor({ client: inngest, functions });
beforeAll(() => {
  setWorkflowCtx(ctx);
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
});
afterAll(() => {
  setWorkflowCtx(undefined);
  reloadEnv();
});

async function* bytesOf(...parts: (string | Buffer)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? Buffer.from(part) : part;
}

async function drain(times = 30) {
  for (let i = 0; i < times; i++) {
    clock.advance(1000);
    await executor.runDue(ctx);
  }
}

async function text(source: AsyncIterable<string | { csv: string }>) {
  let out = "";
  for await (const chunk of source) out += typeof chunk === "string" ? chunk : chunk.csv;
  return out;
}

async function workspace() {
  const seeded = await seedWorkspace(ctx);
  const actor = userActor(seeded.ownerUserId, seeded.workspaceId);
  const topicId = await seedTopic(ctx, seeded.workspaceId, seeded.brandId, { requiresConfirmation: false });
  await defineAttribute(ctx, actor, { key: "plan", type: "string" });
  await defineAttribute(ctx, actor, { key: "seats", type: "number" });
  return { ...seeded, actor, topicId };
}

type Workspace = Awaited<ReturnType<typeof workspace>>;

/** Upload, dry run, apply and run the workflow to the end. */
async function importCsv(
  w: Workspace,
  csv: string | Buffer,
  input: Partial<Record<string, unknown>> = {},
  opts: { apply?: boolean } = {},
) {
  const { importId } = await receiveImport(ctx, w.actor, { fileName: "people.csv", body: bytesOf(csv) });
  const imp = await getImportRowOrThrow(ctx, w.actor, importId);
  const mapping = imp.header.map(
    (h) =>
      ({ email: "email", first: "first_name", last: "last_name", plan: "attributes.plan", seats: "attributes.seats" })[
        h
      ] ?? "",
  );
  const checked = await checkImport(ctx, w.actor, importId, checkImportSchema.parse({ mapping, ...input }));
  if (opts.apply === false) return { importId, checked, applied: null };
  await startImport(ctx, w.actor, importId);
  await drain();
  const done = await getImportRowOrThrow(ctx, w.actor, importId);
  return { importId, checked, applied: done.applied, status: done.status };
}

/** The workspace's contacts, and its contact.subscribed events, counted. */
async function written(w: Workspace): Promise<{ contacts: number; announced: number }> {
  const [made] = await ctx.db.select({ n: count() }).from(contacts).where(eq(contacts.workspaceId, w.workspaceId));
  const [announced] = await ctx.db
    .select({ n: count() })
    .from(events)
    .where(and(eq(events.workspaceId, w.workspaceId), eq(events.type, "contact.subscribed")));
  return { contacts: made!.n, announced: announced!.n };
}

/** Runs `whileHeld` while another transaction holds the locks `hold` takes, then rolls that transaction back. */
async function whileHolding(
  hold: (tx: Ctx) => Promise<unknown>,
  whileHeld: (holderPid: number) => Promise<void>,
): Promise<void> {
  const rollBack = new Error("roll back");
  await withTransaction(ctx, async (tx) => {
    await hold(tx);
    const [{ pid }] = (await tx.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as [{ pid: number }];
    await whileHeld(pid);
    throw rollBack;
  }).catch((error: unknown) => {
    if (error !== rollBack) throw error;
  });
}

/** Backends waiting, directly or through another waiter, for a lock the backend `pid` holds. */
async function blockedBy(pid: number): Promise<number> {
  const [{ n }] = (await ctx.db.execute(sql`
    with recursive blocked(pid) as (
      select a.pid from pg_stat_activity a where ${pid}::int = any(pg_blocking_pids(a.pid))
      union select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid)))
    select count(*)::int as n from blocked`)) as unknown as [{ n: number }];
  return n;
}

const contactOf = async (w: Workspace, email: string) =>
  (
    await ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.workspaceId, w.workspaceId), eq(contacts.email, email)))
  )[0];

describe("CSV import: reading the file", () => {
  it("reads quoted fields, embedded newlines, a byte-order mark and the `;` delimiter", async () => {
    const w = await workspace();
    const csv = '\uFEFFemail;first;last\n"ann@example.com";"Ann";"Lee; Jr"\nbob@example.com;"Bo\nBob";Brown\n';
    const { applied, status } = await importCsv(w, csv);
    expect(status).toBe("completed");
    expect(applied).toMatchObject({ rows: 2, created: 2, refused: {} });
    expect(await contactOf(w, "ann@example.com")).toMatchObject({ firstName: "Ann", lastName: "Lee; Jr" });
    expect(await contactOf(w, "bob@example.com")).toMatchObject({ firstName: "Bo\nBob" });
  });

  it("reads tab-separated Latin-1 files", async () => {
    const w = await workspace();
    const csv = Buffer.from("email\tfirst\nzoe@example.com\tZo\xeb\n", "latin1");
    const { importId } = await receiveImport(ctx, w.actor, { fileName: "old.csv", body: bytesOf(csv) });
    const imp = await getImportRowOrThrow(ctx, w.actor, importId);
    expect(imp).toMatchObject({
      encoding: "latin1",
      delimiter: "\t",
      header: ["email", "first"],
      preview: [["zoe@example.com", "Zoë"]],
      rowCount: 1,
    });
  });

  it("reads a UTF-16 file with its byte-order mark, a spreadsheet's Unicode text, and records it as UTF-16", async () => {
    const w = await workspace();
    const csv = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("email\tfirst\r\nzoe@example.com\tZoë\r\n", "utf16le"),
    ]);
    const { importId } = await receiveImport(ctx, w.actor, { fileName: "unicode.txt", body: bytesOf(csv) });
    expect(await getImportRowOrThrow(ctx, w.actor, importId)).toMatchObject({
      encoding: "utf-16le",
      delimiter: "\t",
      header: ["email", "first"],
      preview: [["zoe@example.com", "Zoë"]],
      rowCount: 1,
    });
    const bigEndian = Buffer.from("\ufeffemail\nzoe@example.com\n", "utf16le").swap16();
    const { importId: other } = await receiveImport(ctx, w.actor, {
      fileName: "unicode-be.txt",
      body: bytesOf(bigEndian),
    });
    expect(await getImportRowOrThrow(ctx, w.actor, other)).toMatchObject({
      encoding: "utf-16be",
      header: ["email"],
      preview: [["zoe@example.com"]],
      rowCount: 1,
    });
  });

  it("the upload is parsed as it arrives, across chunk boundaries, and counts rows", async () => {
    const w = await workspace();
    const { importId, rowCount } = await receiveImport(ctx, w.actor, {
      fileName: "split.csv",
      body: bytesOf("em", "ail,first\nx@exa", "mple.com,X\n", 'y@example.com,"Y\n', 'Y"\n'),
    });
    expect(rowCount).toBe(2);
    expect((await getImportRowOrThrow(ctx, w.actor, importId)).preview).toEqual([
      ["x@example.com", "X"],
      ["y@example.com", "Y\nY"],
    ]);
  });

  it("a file of very short rows is read whole, with its header and five preview rows, however many rows its first mebibyte holds", async () => {
    const w = await workspace();
    // About 150,000 rows in the first mebibyte: more than one call can take as arguments.
    const { importId, rowCount } = await receiveImport(ctx, w.actor, {
      fileName: "short.csv",
      body: bytesOf("email\n" + "a@b.co\n".repeat(200_000)),
    });
    expect(rowCount).toBe(200_000);
    expect(await getImportRowOrThrow(ctx, w.actor, importId)).toMatchObject({
      header: ["email"],
      preview: Array(5).fill(["a@b.co"]),
    });
  });

  it("a file whose stored bytes fail mid-file fails its reading with that error, and nothing else", async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from("email\nx@example.com\n");
      throw new Error("the database went away");
    }
    const read = async () => {
      for await (const _batch of readCsv(failing(), { encoding: "utf-8", delimiter: "," }));
    };
    await expect(read()).rejects.toThrow("the database went away");
  });

  it("an empty file, a header alone, a file over the size cap and a broken quote are refused and nothing is kept", async () => {
    const w = await workspace();
    await expect(receiveImport(ctx, w.actor, { fileName: "e.csv", body: bytesOf() })).rejects.toMatchObject({
      code: "validation_failed",
      param: "file",
    });
    await expect(receiveImport(ctx, w.actor, { fileName: "h.csv", body: bytesOf("email\n") })).rejects.toMatchObject({
      code: "validation_failed",
      param: "file",
    });
    await expect(
      receiveImport(ctx, w.actor, { fileName: "big.csv", body: bytesOf("email\n", "a@example.com\n"), maxBytes: 10 }),
    ).rejects.toMatchObject({ code: "payload_too_large" });
    await expect(
      receiveImport(ctx, w.actor, { fileName: "q.csv", body: bytesOf('email\n"a@example.com\n') }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "file" });
    expect(await ctx.db.select().from(imports).where(eq(imports.workspaceId, w.workspaceId))).toHaveLength(0);
  });
});

describe("CSV import: a NUL character", () => {
  it("a file holding a NUL character (U+0000), which PostgreSQL text cannot hold, is refused at upload naming its row, in the header, the first rows or deep in the file; nothing is kept", async () => {
    const w = await workspace();
    const rows = Array.from({ length: 3000 }, (_, i) => `p${i}@example.com,Name${i}`);
    const files = {
      1: "email,fir\u0000st\nx@example.com,A\n",
      2: "email,first\nx@example.com,A\u0000B\n",
      2002: ["email,first", ...rows.slice(0, 2000), "deep@example.com\u0000,Name", ...rows.slice(2000)].join("\n"),
    };
    for (const [row, csv] of Object.entries(files)) {
      await expect(
        receiveImport(ctx, w.actor, { fileName: "nul.csv", body: bytesOf(csv) }),
        `row ${row}`,
      ).rejects.toMatchObject({
        code: "validation_failed",
        param: "file",
        message: expect.stringContaining(`(row ${row}): it holds a NUL character (U+0000)`),
      });
    }
    expect(await ctx.db.select().from(imports).where(eq(imports.workspaceId, w.workspaceId))).toHaveLength(0);
  });
});

describe("CSV import: the dry run and its refusals", () => {
  it("the dry run counts new, updated (per field) and unchanged contacts and changes nothing", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, { email: "old@example.com", firstName: "Old" });
    await upsertContact(ctx, w.actor, { email: "same@example.com", firstName: "Same" });
    const csv = "email,first,plan\nnew@example.com,New,pro\nold@example.com,Older,basic\nsame@example.com,,\n";
    const { checked } = await importCsv(w, csv, { policy: "overwrite" }, { apply: false });
    expect(checked).toMatchObject({
      rows: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
      updatedFields: { first_name: 1, "attributes.plan": 1 },
      refused: {},
    });
    expect(await contactOf(w, "new@example.com")).toBeUndefined();
    expect((await contactOf(w, "old@example.com"))!.firstName).toBe("Old");
  });

  it("a dry run whose COPY fails mid-file fails at once instead of waiting forever, leaves nothing staged and the import uploaded, and runs again", async () => {
    const w = await workspace();
    const csv = "email,first\n" + Array.from({ length: 200_000 }, (_, i) => `p${i}@example.com,P${i}\n`).join("");
    const { importId } = await receiveImport(ctx, w.actor, { fileName: "big.csv", body: bytesOf(csv) });
    const input = checkImportSchema.parse({ mapping: ["email", "first_name"] });
    // The server cancels the COPY while the file is still being read into it. (A rejection left unheard on the
    // way, as the old code's was, fails the run: Vitest reports unhandled rejections as errors.)
    let cancelled = 0;
    const dryRun = checkImport(ctx, w.actor, importId, input);
    const settled = dryRun.then(
      () => true,
      () => true,
    );
    while (
      cancelled === 0 &&
      !(await Promise.race([settled, new Promise<false>((resolve) => setTimeout(() => resolve(false), 10))]))
    ) {
      // This file's database only: other files import too, each in its own database on the same server.
      const [row] = await ctx.db.execute<{ n: number }>(sql`
        select count(pg_cancel_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and state = 'active' and query like 'copy import_rows%' and pid <> pg_backend_pid()`);
      cancelled = row!.n;
    }
    expect(cancelled).toBe(1);
    await expect(dryRun).rejects.toThrow("canceling statement due to user request");
    const [staged] = await ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from import_rows where import_id = ${importId}`,
    );
    expect(staged!.n).toBe(0);
    expect((await getImportRowOrThrow(ctx, w.actor, importId)).status).toBe("uploaded");
    expect(await checkImport(ctx, w.actor, importId, input)).toMatchObject({ rows: 200_000, created: 200_000 });
  });

  it("the dry run's counts are what the apply then does: new, updated per field, unchanged, subscriptions to make (not those held) and each refusal", async () => {
    const w = await workspace();
    const second = await seedTopic(ctx, w.workspaceId, w.brandId, { requiresConfirmation: false });
    await upsertContact(ctx, w.actor, { email: "held@example.com", firstName: "Held", topicIds: [w.topicId] });
    const pending = await upsertContact(ctx, w.actor, { email: "pending@example.com", topicIds: [second] });
    await ctx.db.update(subscriptions).set({ state: "pending" }).where(eq(subscriptions.contactId, pending.contact.id));
    await createSuppression(ctx, w.actor, { domain: "blocked.example" });
    const csv = [
      "email,first,plan",
      "new1@example.com,A,pro",
      "new2@example.com,,",
      "held@example.com,Held,",
      "pending@example.com,P,team",
      "x@blocked.example,B,",
      "bad,C,",
    ].join("\n");
    const { checked, applied } = await importCsv(w, csv, {
      topicIds: [w.topicId, second],
      consentAsserted: true,
      policy: "overwrite",
    });
    // Two new contacts on both topics, the held one on the second only, the pending one on both.
    expect(checked).toEqual({
      rows: 6,
      created: 2,
      updated: 1,
      updatedFields: { first_name: 1, "attributes.plan": 1 },
      unchanged: 1,
      refused: { suppressed: 1, invalid_email: 1 },
      subscribed: 7,
    });
    expect(applied).toEqual(checked);
  });

  it("refuses each bad row with its reason and row number: invalid address, bad attribute value, duplicate (last wins), unsubscribed, suppressed", async () => {
    const w = await workspace();
    const gone = await upsertContact(ctx, w.actor, { email: "gone@example.com", topicIds: [w.topicId] });
    await optOut(ctx, gone.contact.id, w.topicId);
    await createSuppression(ctx, w.actor, { email: "blocked@example.com" });
    await createSuppression(ctx, w.actor, { domain: "blocked.example" });
    const csv = [
      "email,first,seats",
      "not-an-address,A,1", // row 2
      "ok@example.com,B,many", // row 3
      "twice@example.com,First,1", // row 4
      "TWICE@example.com,Last,2", // row 5
      "gone@example.com,C,1", // row 6
      "blocked@example.com,D,1", // row 7
      "anyone@blocked.example,E,1", // row 8
      "fine@example.com,F,3", // row 9
    ].join("\n");
    const { importId, checked, applied } = await importCsv(w, csv, { topicIds: [w.topicId], consentAsserted: true });
    expect(checked!.refused).toEqual({ invalid_email: 1, bad_value: 1, duplicate: 1, unsubscribed: 1, suppressed: 2 });
    expect(checked).toMatchObject({ created: 2, rows: 8 });
    expect(applied).toMatchObject({ created: 2, refused: checked!.refused });
    expect((await contactOf(w, "twice@example.com"))!.firstName).toBe("Last");
    expect(await contactOf(w, "ok@example.com")).toBeUndefined();

    const refused = await text(refusedRowsCsv(ctx, w.actor, importId));
    const lines = refused.trim().split("\n");
    expect(lines[0]).toBe("row,reason,detail,email,first_name,last_name,attributes");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(","))).toEqual([
      "2,invalid_email",
      "3,bad_value",
      "4,duplicate",
      "6,unsubscribed",
      "7,suppressed",
      "8,suppressed",
    ]);
    expect(refused).toContain('seats: ""many"" is not a number.');
  });

  it("duplicates are rows with the same address, not rows whose addresses share a hash: both such rows are imported, a repeated one once", async () => {
    const w = await workspace();
    // The first two share a 32-bit FNV-1a hash (lib/imports/repeated-addresses.test.ts); the next two are one
    // address. Twelve more rows keep the four listed rows within a quarter of the file, so the list is used.
    const others = Array.from({ length: 12 }, (_, i) => `other${i}@example.com`);
    const csv = [
      "email",
      "person99238@example.com",
      "person517802@example.com",
      "o'b{r}|n@example.com",
      "O'B{R}|N@example.com",
      ...others,
    ].join("\n");
    const { checked, applied } = await importCsv(w, csv);
    expect(checked).toMatchObject({ created: 15, refused: { duplicate: 1 } });
    expect(applied).toMatchObject({ created: 15, refused: { duplicate: 1 } });
  });

  it("rows of any length are staged whole: cells of 20,000 to 300,000 two- and three-byte characters are refused with their full text, the rows around them imported", async () => {
    const w = await workspace();
    // The three-byte row comes after a buffer is part full, where a bound of two bytes a character would cut it;
    // six long rows fill several of the COPY's buffers; the longest is longer than a buffer.
    const longs = ["é".repeat(20_000), "€".repeat(35_000), ...["ø", "ü", "ñ", "å", "ç"].map((c) => c.repeat(40_000))];
    const longest = "ß".repeat(300_000);
    const csv = ["email", "first@example.com", ...longs, "second@example.com", longest, "third@example.com"].join("\n");
    const { importId, checked, applied } = await importCsv(w, csv);
    expect(checked).toMatchObject({ created: 3, refused: { invalid_email: 8 } });
    expect(applied).toMatchObject({ created: 3 });
    const refused = await text(refusedRowsCsv(ctx, w.actor, importId));
    for (const [i, cell] of longs.entries())
      expect(refused, `row ${i + 3}`).toContain(`${i + 3},invalid_email,"""${cell}"" is not an email address."`);
    expect(refused).toContain(`11,invalid_email,"""${longest}"" is not an email address."`);
    for (const email of ["first@example.com", "second@example.com", "third@example.com"])
      expect(await contactOf(w, email), email).toBeDefined();
  });

  it("an address three times: the first two rows are refused as duplicates, each naming the last row, which is imported", async () => {
    const w = await workspace();
    const others = Array.from({ length: 12 }, (_, i) => `other${i}@example.com`);
    const csv = [
      "email,first",
      "thrice@example.com,One",
      "Thrice@example.com,Two",
      "THRICE@example.com,Three",
      ...others.map((o) => `${o},x`),
    ].join("\n");
    const { importId, checked, applied } = await importCsv(w, csv);
    expect(checked).toMatchObject({ created: 13, refused: { duplicate: 2 } });
    expect(applied).toMatchObject({ created: 13, refused: { duplicate: 2 } });
    expect((await contactOf(w, "thrice@example.com"))!.firstName).toBe("Three");
    const refused = await text(refusedRowsCsv(ctx, w.actor, importId));
    expect(refused).toContain("2,duplicate,Row 4 has the same address");
    expect(refused).toContain("3,duplicate,Row 4 has the same address");
  });

  it("a repeated address followed by another address with the same hash: the earlier row names the later row of its own address", async () => {
    const w = await workspace();
    // The first and third addresses share a 32-bit FNV-1a hash: one chain of repeats holds both.
    const others = Array.from({ length: 12 }, (_, i) => `other${i}@example.com`);
    const csv = [
      "email",
      "person99238@example.com",
      "person99238@example.com",
      "person517802@example.com",
      ...others,
    ].join("\n");
    const { importId, checked } = await importCsv(w, csv);
    expect(checked).toMatchObject({ created: 14, refused: { duplicate: 1 } });
    const refused = await text(refusedRowsCsv(ctx, w.actor, importId));
    expect(
      refused
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(",").slice(0, 3).join(",")),
    ).toEqual(["2,duplicate,Row 3 has the same address: the last row for an address is the one imported."]);
  });

  it("a file longer than the rows hashed in memory has its duplicates found by the database: the same refusals, the last row wins", async () => {
    overrideEnvForTests({ IMPORT_HASHED_ROWS: "1" });
    try {
      expect(repeatedAddressesFor(1)).not.toBeNull();
      expect(repeatedAddressesFor(2)).toBeNull();
      const w = await workspace();
      const { importId, checked } = await importCsv(
        w,
        "email,first\ntwice@example.com,First\nonce@example.com,A\nTWICE@example.com,Last\n",
      );
      expect(checked).toMatchObject({ created: 2, refused: { duplicate: 1 } });
      expect((await contactOf(w, "twice@example.com"))!.firstName).toBe("Last");
      expect(await text(refusedRowsCsv(ctx, w.actor, importId))).toContain("2,duplicate,Row 4 has the same address");
    } finally {
      reloadEnv();
    }
  });

  it("an unsubscribed contact is never resubscribed by import: not to the topic, not its name", async () => {
    const w = await workspace();
    const all = await upsertContact(ctx, w.actor, { email: "all@example.com", firstName: "Before" });
    await optOut(ctx, all.contact.id, "all");
    const { applied } = await importCsv(w, "email,first\nall@example.com,After\n", {
      topicIds: [w.topicId],
      consentAsserted: true,
      policy: "overwrite",
    });
    expect(applied).toMatchObject({ refused: { unsubscribed: 1 }, subscribed: 0 });
    expect((await contactOf(w, "all@example.com"))!.firstName).toBe("Before");
    expect(await ctx.db.select().from(subscriptions).where(eq(subscriptions.contactId, all.contact.id))).toHaveLength(
      0,
    );
  });

  it("an opt-out between the dry run and the apply is honoured by the apply", async () => {
    const w = await workspace();
    const late = await upsertContact(ctx, w.actor, { email: "late@example.com", topicIds: [w.topicId] });
    const { importId } = await importCsv(
      w,
      "email\nlate@example.com\n",
      { topicIds: [w.topicId], consentAsserted: true },
      { apply: false },
    );
    await optOut(ctx, late.contact.id, "all");
    await startImport(ctx, w.actor, importId);
    await drain();
    expect((await getImportRowOrThrow(ctx, w.actor, importId)).applied).toMatchObject({
      refused: { unsubscribed: 1 },
      unchanged: 0,
    });
  });

  it("subscribing to topics needs the sender's statement of consent", () => {
    const parsed = checkImportSchema.safeParse({ mapping: ["email"], topicIds: ["tp_x"] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(["consentAsserted"]);
  });

  it("the mapping must name the address column once and only fields the workspace has", async () => {
    const w = await workspace();
    const { importId } = await receiveImport(ctx, w.actor, {
      fileName: "m.csv",
      body: bytesOf("a,b\nx@example.com,y\n"),
    });
    await expect(
      checkImport(ctx, w.actor, importId, checkImportSchema.parse({ mapping: ["", "first_name"] })),
    ).rejects.toMatchObject({ param: "mapping" });
    await expect(
      checkImport(ctx, w.actor, importId, checkImportSchema.parse({ mapping: ["email", "attributes.nope"] })),
    ).rejects.toMatchObject({ param: "mapping.1" });
    await expect(
      checkImport(ctx, w.actor, importId, checkImportSchema.parse({ mapping: ["email", "email"] })),
    ).rejects.toMatchObject({ param: "mapping.1" });
  });
});

describe("CSV import: applying", () => {
  it("merge policy keep: existing values stay and blanks are filled", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, { email: "k@example.com", firstName: "Kept", attributes: { plan: "gold" } });
    await importCsv(w, "email,first,last,plan\nk@example.com,Changed,Filled,silver\n", { policy: "keep" });
    expect(await contactOf(w, "k@example.com")).toMatchObject({
      firstName: "Kept",
      lastName: "Filled",
      attributes: { plan: "gold" },
    });
  });

  it("merge policy overwrite: the file's non-empty values win and its empty cells change nothing", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, {
      email: "o@example.com",
      firstName: "Old",
      lastName: "Stays",
      attributes: { plan: "gold", seats: 2 },
    });
    await importCsv(w, "email,first,last,plan,seats\no@example.com,New,,silver,5\n", { policy: "overwrite" });
    expect(await contactOf(w, "o@example.com")).toMatchObject({
      firstName: "New",
      lastName: "Stays",
      attributes: { plan: "silver", seats: 5 },
    });
  });

  it("each new subscription fires contact.subscribed with source import, the list gets the rows, and the report counters move", async () => {
    const w = await workspace();
    const { listId } = await createList(ctx, w.actor, { name: "Imported", brandId: w.brandId });
    await upsertContact(ctx, w.actor, { email: "has@example.com", topicIds: [w.topicId] });
    const { applied } = await importCsv(w, "email\nhas@example.com\nn1@example.com\nn2@example.com\n", {
      topicIds: [w.topicId],
      consentAsserted: true,
      listId,
    });
    expect(applied).toMatchObject({ created: 2, unchanged: 1, subscribed: 2 });
    const subscribed = (
      await ctx.db
        .select()
        .from(events)
        .where(and(eq(events.workspaceId, w.workspaceId), eq(events.type, "contact.subscribed")))
    ).map((e) => e.data);
    expect(
      subscribed
        .filter((d) => d.source === "import")
        .map((d) => d.email)
        .sort(),
    ).toEqual(["n1@example.com", "n2@example.com"]);
    // The documented payload, as the API's subscription carries it.
    const [topic] = await ctx.db.select().from(topics).where(eq(topics.id, w.topicId));
    const n1 = subscribed.find((d) => d.email === "n1@example.com")!;
    expect(webhookBody("contact.subscribed").shape.data.parse(n1)).toEqual({
      contact_id: (await contactOf(w, "n1@example.com"))!.id,
      email: "n1@example.com",
      topic_id: w.topicId,
      topic_name: topic!.name,
      brand_id: topic!.brandId,
      source: "import",
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Object.keys(n1).sort()).toEqual(Object.keys(subscribed.find((d) => d.source !== "import")!).sort());
    expect(await ctx.db.select().from(listMembers).where(eq(listMembers.listId, listId))).toHaveLength(3);
    const [counters] = await ctx.db
      .select()
      .from(reportWorkspaceCounters)
      .where(eq(reportWorkspaceCounters.workspaceId, w.workspaceId));
    expect(counters!.contactsTotal).toBe(3);
  });

  it("an import's contact.subscribed events reach the workspace's webhook endpoint, one per new subscription, each in the documented shape", async () => {
    overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
    const receiver = await startWebhookReceiver();
    try {
      const w = await workspace();
      await createEndpoint(ctx, w.actor, { url: receiver.url, eventTypes: ["contact.subscribed"] });
      const rows = Array.from({ length: 25 }, (_, i) => `hook${i}@example.com`);
      await importCsv(w, `email\n${rows.join("\n")}\n`, { topicIds: [w.topicId], consentAsserted: true });
      for (let i = 0; i < 20 && receiver.received.length < rows.length; i++) await drain(3);
      const bodies = receiver.received.map((r) => webhookBody("contact.subscribed").parse(r.body));
      expect(bodies.map((b) => b.data.email).sort()).toEqual([...rows].sort());
      expect(new Set(bodies.map((b) => b.id)).size).toBe(rows.length);
      expect(bodies.every((b) => b.data.source === "import" && b.data.topic_id === w.topicId)).toBe(true);
    } finally {
      await receiver.close();
      reloadEnv();
    }
  });

  it("applies in chunks and a cancel stops it at the next chunk, keeping what was applied", async () => {
    overrideEnvForTests({ IMPORT_CHUNK_ROWS: "2" });
    try {
      const w = await workspace();
      const rows = Array.from({ length: 10 }, (_, i) => `c${i}@example.com`);
      const { importId } = await importCsv(w, `email\n${rows.join("\n")}\n`, {}, { apply: false });
      await startImport(ctx, w.actor, importId);
      expect(await applyNextImportChunk(ctx, importId)).toEqual({ done: false }); // the workflow's first chunk
      await cancelImport(ctx, w.actor, importId);
      await drain();
      const imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp.status).toBe("cancelled");
      const made = await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, w.workspaceId));
      expect(made.length).toBe(2);
      expect(imp.applied).toMatchObject({ created: 2, rows: 2 });
    } finally {
      reloadEnv();
    }
  });

  it("chunks applied out of order are each written once, and the progress counts every applied row", async () => {
    overrideEnvForTests({ IMPORT_CHUNK_ROWS: "2" });
    try {
      const w = await workspace();
      const rows = Array.from({ length: 6 }, (_, i) => `o${i}@example.com`);
      const { importId } = await importCsv(
        w,
        `email\n${rows.join("\n")}\n`,
        { topicIds: [w.topicId], consentAsserted: true },
        { apply: false },
      );
      await startImport(ctx, w.actor, importId);
      // Rows are file lines: the data rows are 2 … 7, in three chunks (1,3], (3,5], (5,7].
      expect(await applyNextImportChunk(ctx, importId, { from: 3, to: 5 })).toEqual({ done: false });
      let imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp).toMatchObject({ appliedThrough: 1, appliedAhead: [[3, 5]] });
      expect(importProgress(imp)).toEqual({ done: 2, total: 6 });

      expect(await applyNextImportChunk(ctx, importId)).toEqual({ done: false }); // the first chunk not applied: (1,3]
      expect(await applyNextImportChunk(ctx, importId, { from: 3, to: 5 })).toEqual({ done: false }); // applied already: nothing
      imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp).toMatchObject({
        appliedThrough: 5,
        appliedAhead: [],
        applied: { rows: 4, created: 4, subscribed: 4 },
      });

      expect(await applyNextImportChunk(ctx, importId)).toEqual({ done: true, status: "completed" });
      imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp).toMatchObject({
        status: "completed",
        appliedThrough: 7,
        applied: { rows: 6, created: 6, subscribed: 6 },
      });
      expect(await written(w)).toEqual({ contacts: 6, announced: 6 });
      await drain(); // the workflow the start queued, which finds the import done
    } finally {
      reloadEnv();
    }
  });

  it("a chunk another run has in hand is left to it at once, and chunks that overlap (cut at other sizes) are written and counted once: the run that would mark second rolls back", async () => {
    overrideEnvForTests({ IMPORT_CHUNK_ROWS: "2" });
    try {
      const w = await workspace();
      for (let i = 0; i < 4; i++) await upsertContact(ctx, w.actor, { email: `old${i}@example.com` });
      const csv =
        "email,first\nold0@example.com,Ann\nold1@example.com,Bo\nold2@example.com,Cy\nold3@example.com,Di\nnew0@example.com,Ed\nnew1@example.com,Flo\n";
      const { importId } = await importCsv(
        w,
        csv,
        { topicIds: [w.topicId], consentAsserted: true, policy: "overwrite" },
        { apply: false },
      );
      await startImport(ctx, w.actor, importId);
      const lockOldContacts = (tx: Ctx) =>
        tx.db.execute(
          sql`select id from contacts where workspace_id = ${w.workspaceId} and email like 'old%' for update`,
        );
      const waitUntilBlocked = async (holder: number, n: number) => {
        for (let i = 0; i < 600 && (await blockedBy(holder)) < n; i++)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await blockedBy(holder)).toBe(n);
      };

      // The same chunk, while the first run waits with it in hand: the second run does not wait too.
      let first: Promise<ChunkOutcome> | undefined;
      await whileHolding(lockOldContacts, async (holder) => {
        first = applyNextImportChunk(ctx, importId, { from: 1, to: 3 });
        await waitUntilBlocked(holder, 1);
        expect(await applyNextImportChunk(ctx, importId, { from: 1, to: 3 })).toEqual({ done: false });
      });
      expect(await first).toEqual({ done: false });
      expect((await getImportRowOrThrow(ctx, w.actor, importId)).applied).toMatchObject({ rows: 2, updated: 2 });

      // Overlapping chunks, both past their first look at the import before either writes: another
      // transaction holds what both need (existing contacts' locks, then a new address's key).
      const overlapping = async (chunks: RowChunk[], hold: (tx: Ctx) => Promise<unknown>) => {
        let both: Promise<ChunkOutcome[]> | undefined;
        await whileHolding(hold, async (holder) => {
          both = Promise.all(chunks.map((chunk) => applyNextImportChunk(ctx, importId, chunk)));
          await waitUntilBlocked(holder, 2);
        });
        await both;
      };
      await overlapping(
        [
          { from: 3, to: 5 },
          { from: 4, to: 5 },
        ],
        lockOldContacts,
      );
      await overlapping(
        [
          { from: 5, to: 7 },
          { from: 6, to: 7 },
        ],
        (tx) =>
          tx.db.execute(
            sql`insert into contacts (id, workspace_id, email, created_at, updated_at) values (${newId("ct")}, ${w.workspaceId}, 'new1@example.com', now(), now())`,
          ),
      );
      // Whichever marked second rolled back; the rows it alone held are applied now.
      while (!(await applyImportChunks(ctx, importId)).done);

      const imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp).toMatchObject({
        status: "completed",
        appliedThrough: 7,
        appliedAhead: [],
        applied: { rows: 6, created: 2, updated: 4, unchanged: 0, subscribed: 6 },
      });
      expect(await contactOf(w, "old3@example.com")).toMatchObject({ firstName: "Di" });
      expect(await written(w)).toEqual({ contacts: 6, announced: 6 });
      await drain(); // the workflow the start queued, which finds the import done
    } finally {
      reloadEnv();
    }
  });

  it("a cancel made while a chunk is being applied keeps that chunk and leaves the import cancelled, not completed", async () => {
    overrideEnvForTests({ IMPORT_CHUNK_ROWS: "2" });
    try {
      const w = await workspace();
      await upsertContact(ctx, w.actor, { email: "old0@example.com" });
      await upsertContact(ctx, w.actor, { email: "old1@example.com" });
      const csv = "email,first\nnew0@example.com,Ann\nnew1@example.com,Bo\nold0@example.com,Cy\nold1@example.com,Di\n";
      const { importId } = await importCsv(w, csv, { policy: "overwrite" }, { apply: false });
      await startImport(ctx, w.actor, importId);
      expect(await applyNextImportChunk(ctx, importId)).toEqual({ done: false });

      // The last chunk waits for its contacts' locks, held elsewhere, while the import is cancelled.
      let last: Promise<ChunkOutcome> | undefined;
      await whileHolding(
        (tx) =>
          tx.db.execute(
            sql`select id from contacts where workspace_id = ${w.workspaceId} and email like 'old%' for update`,
          ),
        async (holder) => {
          last = applyNextImportChunk(ctx, importId);
          for (let i = 0; i < 600 && (await blockedBy(holder)) < 1; i++)
            await new Promise((resolve) => setTimeout(resolve, 20));
          await cancelImport(ctx, w.actor, importId);
        },
      );
      expect(await last).toEqual({ done: true, status: "cancelled" });
      const imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp).toMatchObject({
        status: "cancelled",
        appliedThrough: 5,
        applied: { rows: 4, created: 2, updated: 2 },
      });
      expect(await contactOf(w, "old1@example.com")).toMatchObject({ firstName: "Di" });
      await drain(); // the workflow the start queued, which finds the import done
    } finally {
      reloadEnv();
    }
  });

  it("two runs applying one import at once (the admin CLI beside a worker) share its chunks: every row applied once between them", async () => {
    overrideEnvForTests({ IMPORT_CHUNK_ROWS: "20" });
    try {
      const w = await workspace();
      for (let i = 0; i < 100; i += 10) await upsertContact(ctx, w.actor, { email: `both${i}@example.com` });
      const { listId } = await createList(ctx, w.actor, { name: "Both", brandId: w.brandId });
      const rows = Array.from({ length: 400 }, (_, i) => `both${i}@example.com,Name${i}`);
      const { importId } = await importCsv(
        w,
        `email,first\n${rows.join("\n")}\n`,
        { topicIds: [w.topicId], consentAsserted: true, listId, policy: "overwrite" },
        { apply: false },
      );
      await startImport(ctx, w.actor, importId);

      const run = async () => {
        while (!(await applyImportChunks(ctx, importId)).done);
      };
      await Promise.all([run(), run()]);
      const imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp).toMatchObject({
        status: "completed",
        appliedThrough: 401,
        appliedAhead: [],
        applied: { rows: 400, created: 390, updated: 10, subscribed: 400 },
      });
      expect(await written(w)).toEqual({ contacts: 400, announced: 400 });
      expect(await ctx.db.select().from(listMembers).where(eq(listMembers.listId, listId))).toHaveLength(400);
      // The report counts each new contact once, as if each row had come through the API.
      const [counters] = await ctx.db
        .select()
        .from(reportWorkspaceCounters)
        .where(eq(reportWorkspaceCounters.workspaceId, w.workspaceId));
      expect(counters!.contactsTotal).toBe(400);
      await drain(); // the workflow the start queued, which finds the import done
    } finally {
      reloadEnv();
    }
  });

  it("an import is applied only after its dry run, once", async () => {
    const w = await workspace();
    const { importId } = await receiveImport(ctx, w.actor, {
      fileName: "x.csv",
      body: bytesOf("email\nx@example.com\n"),
    });
    await expect(startImport(ctx, w.actor, importId)).rejects.toMatchObject({
      code: "validation_failed",
      param: "import",
    });
  });

  it("another workspace's import looks like none", async () => {
    const w = await workspace();
    const other = await workspace();
    const { importId } = await receiveImport(ctx, w.actor, {
      fileName: "x.csv",
      body: bytesOf("email\nx@example.com\n"),
    });
    await expect(getImportRowOrThrow(ctx, other.actor, importId)).rejects.toMatchObject({ code: "import_not_found" });
    await expect(
      checkImport(ctx, other.actor, importId, checkImportSchema.parse({ mapping: ["email"] })),
    ).rejects.toMatchObject({ code: "import_not_found" });
    await expect(startImport(ctx, other.actor, importId)).rejects.toMatchObject({ code: "import_not_found" });
    await expect(cancelImport(ctx, other.actor, importId)).rejects.toMatchObject({ code: "import_not_found" });
  });

  it("an import that writes a tenth of the contacts table or more leaves the tables it wrote vacuumed, with fresh planner statistics; a smaller one leaves them to autovacuum", async () => {
    const w = await workspace();
    const analyzed = async () =>
      Object.fromEntries(
        (
          await ctx.db.execute<{ relname: string; n: string }>(sql`
            select relname, analyze_count || ' ' || vacuum_count as n from pg_stat_user_tables
            where schemaname = current_schema() and relname in ('contacts', 'subscriptions', 'report_contact_statuses', 'list_members', 'events')`)
        ).map((r) => [r.relname, r.n]),
      );
    for (let i = 0; i < 30; i++) await upsertContact(ctx, w.actor, { email: `present${i}@example.com` });
    await ctx.db.execute(sql`analyze contacts`);
    const [{ n: total }] = (await ctx.db.execute(sql`select count(*)::int as n from contacts`)) as unknown as [
      { n: number },
    ];
    const before = await analyzed();

    const rows = Array.from({ length: Math.ceil(total / 10) }, (_, i) => `grown${i}@example.com`);
    expect((await importCsv(w, `email\n${rows.join("\n")}\n`)).status).toBe("completed");
    const grown = await analyzed();
    expect(Object.keys(grown).sort()).toEqual([
      "contacts",
      "events",
      "list_members",
      "report_contact_statuses",
      "subscriptions",
    ]);
    const plusOne = (counts: string | undefined) =>
      (counts ?? "0 0")
        .split(" ")
        .map((n) => Number(n) + 1)
        .join(" ");
    for (const [table, n] of Object.entries(grown))
      expect(n, `${table}: analyzed and vacuumed`).toBe(plusOne(before[table]));

    expect((await importCsv(w, "email\none-more@example.com\n")).status).toBe("completed");
    expect(await analyzed()).toEqual(grown);
  });

  it("a read-only workspace refuses an import with team_inactive", async () => {
    const w = await workspace();
    await setBillingStage(ctx, w.workspaceId, "read_only");
    await expect(
      receiveImport(ctx, w.actor, { fileName: "x.csv", body: bytesOf("email\nx@example.com\n") }),
    ).rejects.toMatchObject({ code: "team_inactive" });
  });
});

/**
 * Starts the apply of a dry-run import in a worker child process (chunks of `chunkRows`), SIGKILLs it
 * once `killAfter` rows are applied and before all `rows` are, then lets this process carry the same
 * run on once the worker's lease runs out.
 */
async function applyAcrossACrash(
  w: Workspace,
  importId: string,
  opts: { rows: number; chunkRows: number; killAfter: number; env?: Record<string, string> },
) {
  // The worker runs on real time: queue the apply on real time too.
  await startImport({ ...ctx, clock: systemClock }, w.actor, importId);
  const progress = async () => importProgress(await getImportRowOrThrow(ctx, w.actor, importId)).done;
  const child = spawnWorker({ IMPORT_CHUNK_ROWS: String(opts.chunkRows), ...opts.env });
  for (let i = 0; i < 600 && (await progress()) < opts.killAfter; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  child.kill("SIGKILL");
  await child.exited;
  const before = await progress();
  expect(before).toBeGreaterThanOrEqual(opts.killAfter);
  expect(before).toBeLessThan(opts.rows);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  await drain(10);
}

describe("CSV import across a crash", () => {
  it("killing the worker in the middle of an apply and restarting applies every row exactly once", async () => {
    const w = await workspace();
    const rows = Array.from({ length: 4000 }, (_, i) => `crash${i}@example.com,Name${i}`);
    const { importId } = await importCsv(
      w,
      `email,first\n${rows.join("\n")}\n`,
      { topicIds: [w.topicId], consentAsserted: true },
      { apply: false },
    );
    await applyAcrossACrash(w, importId, { rows: 4000, chunkRows: 40, killAfter: 400 });
    const imp = await getImportRowOrThrow(ctx, w.actor, importId);
    expect(imp.status).toBe("completed");
    expect(imp.applied).toMatchObject({ rows: 4000, created: 4000, subscribed: 4000 });
    expect(await written(w)).toEqual({ contacts: 4000, announced: 4000 });
  });

  it("killing the worker in the middle of an apply that updates known contacts, fills a list and announces to a webhook endpoint: each row, member, event and delivery once, and the report counts exact", async () => {
    overrideEnvForTests({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
    const receiver = await startWebhookReceiver();
    try {
      const w = await workspace();
      const { endpointId } = await createEndpoint(ctx, w.actor, {
        url: receiver.url,
        eventTypes: ["contact.subscribed"],
      });
      const { listId } = await createList(ctx, w.actor, { name: "Crash", brandId: w.brandId });
      // Every other address is already a contact, under another name and on no topic.
      const known = Array.from({ length: 1000 }, (_, i) => `mixed${2 * i}@example.com,Old`);
      expect((await importCsv(w, `email,first\n${known.join("\n")}\n`)).status).toBe("completed");
      const rows = Array.from({ length: 2000 }, (_, i) => `mixed${i}@example.com,Name${i}`);
      const input = { topicIds: [w.topicId], consentAsserted: true, listId, policy: "overwrite" };
      const { importId } = await importCsv(w, `email,first\n${rows.join("\n")}\n`, input, { apply: false });
      await applyAcrossACrash(w, importId, {
        rows: 2000,
        chunkRows: 20,
        killAfter: 200,
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" },
      });
      const imp = await getImportRowOrThrow(ctx, w.actor, importId);
      expect(imp).toMatchObject({
        status: "completed",
        applied: { rows: 2000, created: 1000, updated: 1000, subscribed: 2000 },
      });
      expect(await written(w)).toEqual({ contacts: 2000, announced: 2000 });
      const renamed = await ctx.db.execute(
        sql`select count(*)::int as n from contacts where workspace_id = ${w.workspaceId} and first_name = 'Name' || substring(email from 'mixed([0-9]+)@')`,
      );
      expect(renamed[0]).toEqual({ n: 2000 });
      expect(await ctx.db.select().from(listMembers).where(eq(listMembers.listId, listId))).toHaveLength(2000);
      const [counters] = await ctx.db
        .select()
        .from(reportWorkspaceCounters)
        .where(eq(reportWorkspaceCounters.workspaceId, w.workspaceId));
      expect(counters!.contactsTotal).toBe(2000);
      const [brand] = await ctx.db.select().from(reportBrandCounters).where(eq(reportBrandCounters.brandId, w.brandId));
      expect(brand!.listMemberships).toBe(2000);

      // Every announcement has its delivery, and reaches the receiver.
      const [undelivered] = await ctx.db.execute(sql`
        select count(*)::int as n from events e where e.workspace_id = ${w.workspaceId} and e.type = 'contact.subscribed'
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.endpoint_id = ${endpointId})`);
      expect(undelivered).toEqual({ n: 0 });
      for (let i = 0; i < 60 && new Set(receiver.received.map((r) => (r.body as { id: string }).id)).size < 2000; i++)
        await drain(3);
      const received = receiver.received.map((r) => webhookBody("contact.subscribed").parse(r.body).data.email);
      expect(new Set(received).size).toBe(2000);
    } finally {
      await receiver.close();
      reloadEnv();
    }
  });
});

describe("CSV import across a shutdown", () => {
  it("SIGTERM during an apply finishes the step in hand (a few chunks), hands the run back, and the next start applies every row exactly once", async () => {
    const w = await workspace();
    const rows = Array.from({ length: 4000 }, (_, i) => `term${i}@example.com,Name${i}`);
    const { importId } = await importCsv(
      w,
      `email,first\n${rows.join("\n")}\n`,
      { topicIds: [w.topicId], consentAsserted: true },
      { apply: false },
    );
    await startImport({ ...ctx, clock: systemClock }, w.actor, importId);
    const progress = async () => importProgress(await getImportRowOrThrow(ctx, w.actor, importId)).done;

    const child = spawnWorker({ IMPORT_CHUNK_ROWS: "40" });
    for (let i = 0; i < 6000 && (await progress()) < 400; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);

    // Stopped on a chunk's edge, with the run's lease given up rather than left to lapse.
    const applied = await progress();
    expect(applied).toBeGreaterThanOrEqual(400);
    expect(applied).toBeLessThan(4000);
    expect(applied % 40).toBe(0);
    const [made] = await ctx.db.select({ n: count() }).from(contacts).where(eq(contacts.workspaceId, w.workspaceId));
    expect(made!.n).toBe(applied);
    const [run] = await ctx.db.execute<{ status: string; lease_until: Date | null }>(
      sql`select status, lease_until from workflow_runs where function_id like '%contact-import' and event->'data'->>'importId' = ${importId}`,
    );
    expect(run).toMatchObject({ status: "pending", lease_until: null });

    await drain(10);
    const imp = await getImportRowOrThrow(ctx, w.actor, importId);
    expect(imp.status).toBe("completed");
    expect(imp.applied).toMatchObject({ rows: 4000, created: 4000, subscribed: 4000 });
    const [announced] = await ctx.db
      .select({ n: count() })
      .from(events)
      .where(and(eq(events.workspaceId, w.workspaceId), eq(events.type, "contact.subscribed")));
    expect(announced!.n).toBe(4000);
  });
});

describe("contact export", () => {
  it("exports every field, the status and per topic the subscription with its consent evidence", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, {
      email: "e@example.com",
      firstName: "=cmd()",
      attributes: { seats: 3 },
      topicIds: [w.topicId],
    });
    const csv = await text(exportContactsCsv(ctx, w.actor, {}));
    const [header, row] = csv.trim().split("\n");
    expect(header).toMatch(
      /^id,email,first_name,last_name,status,created_at,attributes\.plan,attributes\.seats,topic:Topic [^,]+:state,topic:Topic [^,]+:source,/,
    );
    expect(row).toContain("e@example.com,'=cmd(),,subscribed,");
    expect(row).toContain(",3,subscribed,dashboard,");
  });

  it("contact export works when the workspace is read-only and is refused once deleted", async () => {
    const w = await workspace();
    await upsertContact(ctx, systemActor("test", w.workspaceId), { email: "r@example.com" });
    await setBillingStage(ctx, w.workspaceId, "read_only");
    expect(await text(exportContactsCsv(ctx, w.actor, {}))).toContain("r@example.com");
    await setBillingStage(ctx, w.workspaceId, "deleted");
    await expect(text(exportContactsCsv(ctx, w.actor, {}))).rejects.toMatchObject({ code: "team_inactive" });
  });

  it("the export follows the contacts screen's filter", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, { email: "in@example.com", topicIds: [w.topicId] });
    await upsertContact(ctx, w.actor, { email: "out@example.com" });
    const csv = await text(exportContactsCsv(ctx, w.actor, { topicId: w.topicId }));
    expect(csv).toContain("in@example.com");
    expect(csv).not.toContain("out@example.com");
  });
});
