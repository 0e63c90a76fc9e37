import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { idArray } from "@/lib/db/id-array";
import { contactBulkActions, listMembers, optOutsOnBehalf } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { importTestFixture } from "@/lib/testing/import-fixture";

import { runBulkActionChunks, startBulkAction } from "./contact-bulk-actions";
import { upsertContact } from "./upsert-contact";

const { ctx, workspace, drain } = importTestFixture();

/** A workspace with `n` contacts named Ann (subscribed to its topic) and two named Bob who are not. */
async function people(n: number) {
  const w = await workspace();
  const anns: string[] = [];
  for (let i = 0; i < n; i++)
    anns.push(
      (await upsertContact(ctx, w.actor, { email: `ann${i}@example.org`, firstName: "Ann", topicIds: [w.topicId] }))
        .contact.id,
    );
  const bobs = [
    (await upsertContact(ctx, w.actor, { email: "bob1@example.org", firstName: "Bob" })).contact.id,
    (await upsertContact(ctx, w.actor, { email: "bob2@example.org", firstName: "Bob" })).contact.id,
  ];
  const { listId } = await createList(ctx, w.actor, { brandId: w.brandId, name: "Regulars" });
  return { w, anns, bobs, listId };
}

/** The figures the report triggers keep for a workspace, to compare with a recount from its rows (report_rebuild). */
async function keptCounts(workspaceId: string) {
  const read = async (query: ReturnType<typeof sql>) => (await ctx.db.execute(query)).map((row) => ({ ...row }));
  return {
    workspace: await read(
      sql`select contacts_total::int, contacts_unsubscribed::int, contacts_bounced::int, contacts_complained::int from report_workspace_counters where workspace_id = ${workspaceId}`,
    ),
    brands: await read(
      sql`select brand_id, lists_total::int, list_memberships::int from report_brand_counters where workspace_id = ${workspaceId} order by brand_id`,
    ),
    statuses: await read(
      sql`select status, count(*)::int as n from report_contact_statuses where workspace_id = ${workspaceId} group by status order by status`,
    ),
  };
}

/** The kept figures, then a recount from the rows: equal when the bulk paths counted each change once. */
async function keptAndRecounted(workspaceId: string) {
  const kept = await keptCounts(workspaceId);
  await ctx.db.execute(sql`select report_rebuild(${workspaceId})`);
  return { kept, recounted: await keptCounts(workspaceId) };
}

const progress = async (id: string) =>
  (await ctx.db.select().from(contactBulkActions).where(eq(contactBulkActions.id, id)))[0]!;

describe("bulk actions on contacts", () => {
  it("adding the whole filter to a list adds every contact it matches, and no other, in the background with its progress", async () => {
    const { w, anns, listId } = await people(5);
    const { bulkActionId } = await startBulkAction(ctx, w.actor, {
      kind: "add_to_list",
      listId,
      filters: { topic: w.topicId },
    });
    expect(await progress(bulkActionId)).toMatchObject({ status: "running", total: null, done: 0 });
    await drain();
    expect(await progress(bulkActionId)).toMatchObject({ status: "completed", total: 5, done: 5 });
    const members = await ctx.db.select().from(listMembers).where(eq(listMembers.listId, listId));
    expect(members.map((m) => m.contactId).sort()).toEqual([...anns].sort());
  });

  it("erasing picked contacts erases each of them and nobody else", async () => {
    const { w, anns, bobs } = await people(3);
    const { bulkActionId } = await startBulkAction(ctx, w.actor, {
      kind: "erase",
      contactIds: [anns[0]!, bobs[1]!],
      confirmation: "erase",
    });
    await drain();
    expect(await progress(bulkActionId)).toMatchObject({ status: "completed", total: 2, done: 2 });
    const left = (await ctx.db.execute(
      sql`select id from contacts where workspace_id = ${w.workspaceId} order by id`,
    )) as unknown as { id: string }[];
    expect(left.map((row) => row.id)).toEqual([anns[1], anns[2], bobs[0]].sort());
  });

  it("unsubscribing at their request opts each one out with the note, as the one-contact action does", async () => {
    const { w, anns } = await people(3);
    const { bulkActionId } = await startBulkAction(ctx, w.actor, {
      kind: "unsubscribe",
      topicId: null,
      note: "letters received on 3 March",
      filters: { q: "ann" },
    });
    await drain();
    expect(await progress(bulkActionId)).toMatchObject({ status: "completed", done: 3 });
    const notes = await ctx.db
      .select()
      .from(optOutsOnBehalf)
      .where(and(eq(optOutsOnBehalf.workspaceId, w.workspaceId), eq(optOutsOnBehalf.scope, "all")));
    expect(notes.map((n) => n.contactId).sort()).toEqual([...anns].sort());
    expect(new Set(notes.map((n) => n.note))).toEqual(new Set(["letters received on 3 March"]));
  });

  it("is refused, with nothing started, without its list, its note, the erase confirmation, or a list of the workspace", async () => {
    const { w, anns, listId } = await people(1);
    const other = await people(0);
    const cases = [
      [{ kind: "add_to_list", contactIds: anns }, "listId"],
      [{ kind: "unsubscribe", contactIds: anns }, "note"],
      [{ kind: "erase", contactIds: anns, confirmation: "yes" }, "confirmation"],
      [{ kind: "erase", confirmation: "ERASE" }, "contactIds"],
    ] as const;
    for (const [input, param] of cases)
      await expect(startBulkAction(ctx, w.actor, input)).rejects.toMatchObject({ code: "validation_failed", param });
    await expect(
      startBulkAction(ctx, other.w.actor, { kind: "add_to_list", listId, contactIds: other.anns.concat(other.bobs) }),
    ).rejects.toMatchObject({ code: "list_not_found" });
    const started = await ctx.db
      .select()
      .from(contactBulkActions)
      .where(eq(contactBulkActions.workspaceId, w.workspaceId));
    expect(started).toEqual([]);
  });

  it("taking the whole filter off a list removes their memberships and no other, and the list's count follows", async () => {
    const { w, anns, bobs, listId } = await people(3);
    const added = await startBulkAction(ctx, w.actor, {
      kind: "add_to_list",
      listId,
      contactIds: [anns[0]!, bobs[0]!],
    });
    await drain();
    expect(await progress(added.bulkActionId)).toMatchObject({ status: "completed", done: 2 });
    const { bulkActionId } = await startBulkAction(ctx, w.actor, {
      kind: "remove_from_list",
      listId,
      filters: { topic: w.topicId },
    });
    await drain();
    expect(await progress(bulkActionId)).toMatchObject({ status: "completed", total: 3, done: 3 });
    const members = await ctx.db.select().from(listMembers).where(eq(listMembers.listId, listId));
    expect(members.map((m) => m.contactId)).toEqual([bobs[0]]);
    const { kept, recounted } = await keptAndRecounted(w.workspaceId);
    expect(kept).toEqual(recounted);
    expect(kept.brands[0]).toMatchObject({ list_memberships: 1 });
  });

  it("erasing the whole filter erases every contact it matches and nobody else, and the contact counts equal a recount", async () => {
    const { w, anns, bobs, listId } = await people(4);
    await startBulkAction(ctx, w.actor, { kind: "add_to_list", listId, contactIds: [anns[0]!, bobs[0]!] });
    await drain();
    const { bulkActionId } = await startBulkAction(ctx, w.actor, {
      kind: "erase",
      filters: { topic: w.topicId },
      confirmation: "ERASE",
    });
    await drain();
    expect(await progress(bulkActionId)).toMatchObject({ status: "completed", total: 4, done: 4 });
    const left = (await ctx.db.execute(
      sql`select id from contacts where workspace_id = ${w.workspaceId} order by id`,
    )) as unknown as { id: string }[];
    expect(left.map((row) => row.id)).toEqual([...bobs].sort());
    const subscriptions = (await ctx.db.execute(
      sql`select count(*)::int as n from subscriptions where contact_id = any(${idArray(anns)})`,
    )) as unknown as { n: number }[];
    expect(subscriptions[0]!.n).toBe(0);
    const erased = (await ctx.db.execute(
      sql`select contact_id from erased_contacts where workspace_id = ${w.workspaceId} order by contact_id`,
    )) as unknown as { contact_id: string }[];
    expect(erased.map((row) => row.contact_id)).toEqual([...anns].sort());
    const { kept, recounted } = await keptAndRecounted(w.workspaceId);
    expect(kept).toEqual(recounted);
    expect(kept.workspace[0]).toMatchObject({ contacts_total: 2 });
    expect(kept.brands[0]).toMatchObject({ list_memberships: 1 });
  });

  it("a chunk run twice at once (a retried step beside the first) acts once: each contact added once, counted once", async () => {
    const { w, anns, listId } = await people(3);
    const { bulkActionId } = await startBulkAction(ctx, w.actor, {
      kind: "add_to_list",
      listId,
      filters: { topic: w.topicId },
    });
    await Promise.all([runBulkActionChunks(ctx, bulkActionId), runBulkActionChunks(ctx, bulkActionId)]);
    // And once more after it completed, as a step retried after its result was lost.
    expect(await runBulkActionChunks(ctx, bulkActionId)).toEqual({ done: true });
    expect(await progress(bulkActionId)).toMatchObject({ status: "completed", total: 3, done: 3 });
    const members = await ctx.db.select().from(listMembers).where(eq(listMembers.listId, listId));
    expect(members.map((m) => m.contactId).sort()).toEqual([...anns].sort());
    const { kept, recounted } = await keptAndRecounted(w.workspaceId);
    expect(kept).toEqual(recounted);
    expect(kept.brands[0]).toMatchObject({ list_memberships: 3 });
  });

  it("an erasure run twice at once erases each person once: one erasure record each, counts equal a recount", async () => {
    const { w, anns } = await people(3);
    const { bulkActionId } = await startBulkAction(ctx, w.actor, {
      kind: "erase",
      contactIds: anns,
      confirmation: "ERASE",
    });
    await Promise.all([runBulkActionChunks(ctx, bulkActionId), runBulkActionChunks(ctx, bulkActionId)]);
    expect(await progress(bulkActionId)).toMatchObject({ status: "completed", total: 3, done: 3 });
    const erased = (await ctx.db.execute(
      sql`select contact_id from erased_contacts where workspace_id = ${w.workspaceId} order by contact_id`,
    )) as unknown as { contact_id: string }[];
    expect(erased.map((row) => row.contact_id)).toEqual([...anns].sort());
    const { kept, recounted } = await keptAndRecounted(w.workspaceId);
    expect(kept).toEqual(recounted);
    expect(kept.workspace[0]).toMatchObject({ contacts_total: 2 });
  });
});
