import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { idArray } from "@/lib/db/id-array";
import { contactBulkActions, listMembers, optOutsOnBehalf } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";
import { unsubscribeOnBehalf } from "@/lib/subscriptions/unsubscribe-on-behalf";
import { seedTopic } from "@/lib/testing/factories";
import { importTestFixture } from "@/lib/testing/import-fixture";
import { createEndpoint } from "@/lib/webhooks/endpoints";

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
  await foldContactCounts(ctx, workspaceId); // readers fold the queued new-contact counts first
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

/**
 * A workspace whose people stand in each state an opt-out meets, with an endpoint for every event: ada on
 * both topics, bob on the first only, cy on none, dee opted out of everything already (by a member), eve
 * off the first topic by her own link.
 */
async function optOutAudience() {
  const w = await workspace();
  const operator = systemActor("test", w.workspaceId);
  await createEndpoint(ctx, operator, { url: "https://93.184.215.14/hooks", eventTypes: [] });
  const offers = await seedTopic(ctx, w.workspaceId, w.brandId, { requiresConfirmation: false });
  const add = async (name: string, topicIds: string[]) =>
    (await upsertContact(ctx, w.actor, { email: `${name}@example.org`, firstName: name, topicIds })).contact.id;
  const people = {
    ada: await add("ada", [w.topicId, offers]),
    bob: await add("bob", [w.topicId]),
    cy: await add("cy", []),
    dee: await add("dee", [w.topicId, offers]),
    eve: await add("eve", [w.topicId]),
  };
  await unsubscribeOnBehalf(ctx, w.actor, { contactId: people.dee, topicId: null, note: "earlier" });
  await unsubscribe(ctx, { contactId: people.eve, scope: "topic", topicId: w.topicId });
  return { w, offers, people };
}

/**
 * What an opt-out writes in a workspace, with every id and name that differs from workspace to workspace
 * replaced by a label: contacts, subscriptions, contact.unsubscribed events with their webhook deliveries,
 * the members' notes, the activity series and the kept counts.
 */
async function optOutRecord(workspaceId: string) {
  const read = async (query: ReturnType<typeof sql>) => (await ctx.db.execute(query)).map((row) => ({ ...row }));
  const names: [string, string][] = [];
  for (const row of await read(sql`select id, email from contacts where workspace_id = ${workspaceId}`))
    names.push([String(row.id), String(row.email)]);
  for (const [i, row] of (
    await read(sql`select id, name from topics where workspace_id = ${workspaceId} order by id`)
  ).entries())
    names.push([String(row.id), `topic${i}`], [String(row.name), `topic${i} name`]);
  for (const row of await read(sql`select id from brands where workspace_id = ${workspaceId}`))
    names.push([String(row.id), "brand"]);
  for (const row of await read(sql`select id from webhook_endpoints where workspace_id = ${workspaceId}`))
    names.push([String(row.id), "endpoint"]);
  for (const row of await read(sql`select user_id from memberships where workspace_id = ${workspaceId}`))
    names.push([String(row.user_id), "member"]);
  const record = {
    contacts: await read(sql`select email, opted_out_at, updated_at from contacts where workspace_id = ${workspaceId}`),
    subscriptions: await read(sql`
      select s.contact_id, s.topic_id, s.state, s.unsubscribed_at, s.updated_at
      from subscriptions s where s.workspace_id = ${workspaceId}`),
    events: await read(sql`
      select e.type, e.data, e.occurred_at, e.created_at,
             (select array_agg(d.order_key order by d.order_key) from webhook_deliveries d where d.event_id = e.id) as deliveries
      from events e where e.workspace_id = ${workspaceId} and e.type = 'contact.unsubscribed'`),
    notes: await read(sql`
      select o.contact_id, o.scope, o.topic_id, o.made_by, o.note, o.created_at, e.data->>'contact_id' as event_about
      from opt_outs_on_behalf o left join events e on e.id = o.event_id where o.workspace_id = ${workspaceId}`),
    activity: await read(sql`
      select grain, bucket_at, brand_id, contacts_added, unsubscribes from report_activity where workspace_id = ${workspaceId}`),
    ...(await keptAndRecounted(workspaceId)),
  };
  // Labelled, then each table's rows in a stable order.
  let text = JSON.stringify(record);
  for (const [id, label] of names) text = text.replaceAll(id, label);
  const labelled = JSON.parse(text) as Record<string, unknown>;
  for (const rows of Object.values(labelled))
    if (Array.isArray(rows)) rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return labelled;
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

  for (const scope of ["everything", "one topic"] as const)
    it(`unsubscribing in bulk from ${scope} is the one-contact opt-out for each person: the same subscriptions, status, events, webhooks, notes and counts`, async () => {
      // The same people twice: opted out one at a time in the first workspace, by the bulk action in the second.
      const one = await optOutAudience();
      const bulk = await optOutAudience();
      const note = "letters received on 3 March";
      for (const contactId of Object.values(one.people))
        await unsubscribeOnBehalf(ctx, one.w.actor, {
          contactId,
          topicId: scope === "everything" ? null : one.w.topicId,
          note,
        });
      const { bulkActionId } = await startBulkAction(ctx, bulk.w.actor, {
        kind: "unsubscribe",
        topicId: scope === "everything" ? null : bulk.w.topicId,
        note,
        filters: {},
      });
      // Its step, at the same time as the one-contact opt-outs (drain would move the clock).
      while (!(await runBulkActionChunks(ctx, bulkActionId)).done);
      expect(await progress(bulkActionId)).toMatchObject({ status: "completed", total: 5, done: 5 });
      const expected = await optOutRecord(one.w.workspaceId);
      const made = await optOutRecord(bulk.w.workspaceId);
      expect(made).toEqual(expected);
      expect(made.kept).toEqual(made.recounted);
      // Who it opted out, each with a note beside their event: from everything, all but dee (already out); from the
      // topic, ada and bob (cy had no subscription: the wish is kept as one, recording nothing; eve had left it).
      const notes = (made.notes as { note: string; contact_id: string; event_about: string }[]).filter(
        (row) => row.note === note,
      );
      expect(notes.every((row) => row.event_about === row.contact_id)).toBe(true);
      expect(notes.map((row) => row.contact_id).sort()).toEqual(
        scope === "everything"
          ? ["ada@example.org", "bob@example.org", "cy@example.org", "eve@example.org"]
          : ["ada@example.org", "bob@example.org"],
      );
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
