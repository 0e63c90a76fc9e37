import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { contactBulkActions, listMembers, optOutsOnBehalf } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { importTestFixture } from "@/lib/testing/import-fixture";

import { startBulkAction } from "./contact-bulk-actions";
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
});
