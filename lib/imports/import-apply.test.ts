import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { upsertContact } from "@/lib/contacts/upsert-contact";
import { events, listMembers, reportWorkspaceCounters, topics } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { createList } from "@/lib/lists/create-list";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";
import { setBillingStage } from "@/lib/testing/factories";
import { bytesOf, importTestFixture } from "@/lib/testing/import-fixture";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { webhookBody } from "@/lib/webhooks/event-schemas";

import { checkImport } from "./check-import";
import { getImportRowOrThrow } from "./get-import";
import { cancelImport, startImport } from "./import-actions";
import { checkImportSchema } from "./import-schemas";
import { receiveImport } from "./receive-import";

const { ctx, drain, workspace, importCsv, contactOf } = importTestFixture();

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

  it("a time zone column fills the contact's time zone as the zone database names it, under the merge policy; an empty cell changes nothing", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, { email: "kept@example.com" });
    await importCsv(w, "email,zone\nkept@example.com,Europe/Paris\n", { policy: "overwrite" });
    const { checked } = await importCsv(
      w,
      "email,zone\nnew@example.com,europe/berlin\nkept@example.com,\nmoved@example.com,US/Pacific\n",
      { policy: "overwrite" },
    );
    expect(checked!.refused).toEqual({});
    expect((await contactOf(w, "new@example.com"))!.timeZone).toBe("Europe/Berlin");
    expect((await contactOf(w, "kept@example.com"))!.timeZone).toBe("Europe/Paris");
    expect((await contactOf(w, "moved@example.com"))!.timeZone).toBe("America/Los_Angeles");
    // Keep: a stored time zone stays, whatever the file says.
    const { checked: kept } = await importCsv(w, "email,zone\nkept@example.com,Asia/Tokyo\n", { policy: "keep" });
    expect(kept).toMatchObject({ unchanged: 1, updated: 0 });
    expect((await contactOf(w, "kept@example.com"))!.timeZone).toBe("Europe/Paris");
    const { checked: overwritten } = await importCsv(w, "email,zone\nkept@example.com,Asia/Tokyo\n", {
      policy: "overwrite",
    });
    expect(overwritten).toMatchObject({ updated: 1, updatedFields: { time_zone: 1 } });
    expect((await contactOf(w, "kept@example.com"))!.timeZone).toBe("Asia/Tokyo");
  });

  it("a cell that is not a time zone refuses its row as bad_value, saying why", async () => {
    const w = await workspace();
    const { checked } = await importCsv(w, "email,zone\noffset@example.com,+01:00\nfine@example.com,UTC\n");
    expect(checked!.refused).toEqual({ bad_value: 1 });
    expect(await contactOf(w, "offset@example.com")).toBeUndefined();
    expect((await contactOf(w, "fine@example.com"))!.timeZone).toBe("UTC");
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
    await foldContactCounts(ctx, w.workspaceId);
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
