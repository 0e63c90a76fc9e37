import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { upsertContact } from "@/lib/contacts/upsert-contact";
import { subscriptions } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { collectCsv } from "@/lib/testing/collect-csv";
import { optOut, seedTopic } from "@/lib/testing/factories";
import { bytesOf, importTestFixture } from "@/lib/testing/import-fixture";

import { checkImport } from "./check-import";
import { getImportRowOrThrow } from "./get-import";
import { startImport } from "./import-actions";
import { checkImportSchema } from "./import-schemas";
import { receiveImport } from "./receive-import";
import { refusedRowsCsv } from "./refused-rows-csv";
import { repeatedAddressesFor } from "./stage-import-rows";

const { ctx, drain, workspace, importCsv, contactOf } = importTestFixture();

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

    const refused = await collectCsv(refusedRowsCsv(ctx, w.actor, importId));
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
    const refused = await collectCsv(refusedRowsCsv(ctx, w.actor, importId));
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
    const refused = await collectCsv(refusedRowsCsv(ctx, w.actor, importId));
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
    const refused = await collectCsv(refusedRowsCsv(ctx, w.actor, importId));
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
      expect(await collectCsv(refusedRowsCsv(ctx, w.actor, importId))).toContain(
        "2,duplicate,Row 4 has the same address",
      );
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
