import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { upsertContact } from "@/lib/contacts/upsert-contact";
import { withTransaction, type Ctx } from "@/lib/context";
import { contacts, listMembers, reportWorkspaceCounters } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { createList } from "@/lib/lists/create-list";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";
import { importTestFixture } from "@/lib/testing/import-fixture";

import type { RowChunk } from "./applied-rows";
import { applyImportChunks, applyNextImportChunk, type ChunkOutcome } from "./apply-import-chunk";
import { getImportRowOrThrow, importProgress } from "./get-import";
import { cancelImport, startImport } from "./import-actions";

const { ctx, drain, workspace, importCsv, written, contactOf } = importTestFixture();

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

describe("CSV import: applying", () => {
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
      await foldContactCounts(ctx, w.workspaceId);
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
});
