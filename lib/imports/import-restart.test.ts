import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { spawnWorker } from "@/inngest/embedded/testing/spawn-worker";
import { systemClock } from "@/lib/clock";
import { contacts, events, listMembers, reportBrandCounters, reportWorkspaceCounters } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { createList } from "@/lib/lists/create-list";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";
import type { ContactsWorkspace } from "@/lib/testing/contacts-workspace";
import { importTestFixture } from "@/lib/testing/import-fixture";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { webhookBody } from "@/lib/webhooks/event-schemas";

import { getImportRowOrThrow, importProgress } from "./get-import";
import { startImport } from "./import-actions";

const { ctx, drain, workspace, importCsv, written } = importTestFixture();

/**
 * Starts the apply of a dry-run import in a worker child process (chunks of `chunkRows`), SIGKILLs it
 * once `killAfter` rows are applied and before all `rows` are, then lets this process carry the same
 * run on once the worker's lease runs out.
 */
async function applyAcrossACrash(
  w: ContactsWorkspace,
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
      await foldContactCounts(ctx, w.workspaceId);
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
