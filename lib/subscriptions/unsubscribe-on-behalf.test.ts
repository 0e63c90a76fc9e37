import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { unsubscribe } from "@/lib/consent/unsubscribe";
import { getContactDetailsOrThrow } from "@/lib/contacts/get-contact-details";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { rawClient } from "@/lib/db/client";
import { contacts, events, optOutsOnBehalf, subscriptions, users, webhookDeliveries } from "@/lib/db/schema";
import { changedTables, checksumTables } from "@/lib/testing/database-checksum";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { webhookBody } from "@/lib/webhooks/event-schemas";

import { unsubscribeOnBehalf } from "./unsubscribe-on-behalf";

const { ctx } = testCtx();
const unsubscribedPayload = webhookBody("contact.unsubscribed").shape.data;

/** A workspace with an endpoint for every event, two topics, and two contacts subscribed to both. */
async function setup() {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const operator = systemActor("test", workspaceId);
  await createEndpoint(ctx, operator, { url: "https://93.184.215.14/hooks", eventTypes: [] });
  const news = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const offers = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const subscribed = async (email: string) =>
    (await upsertContact(ctx, operator, { email, topicIds: [news, offers] })).contact.id;
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, ownerUserId));
  return {
    workspaceId,
    brandId,
    news,
    offers,
    ada: await subscribed("ada@example.com"),
    bob: await subscribed("bob@example.com"),
    member: userActor(ownerUserId, workspaceId),
    memberEmail: owner!.email,
  };
}

const unsubscribedEvents = (workspaceId: string, contactId: string) =>
  ctx.db
    .select()
    .from(events)
    .where(
      and(
        eq(events.workspaceId, workspaceId),
        eq(events.type, "contact.unsubscribed"),
        sql`${events.data}->>'contact_id' = ${contactId}`,
      ),
    );

const statesOf = async (contactId: string) =>
  Object.fromEntries(
    (await ctx.db.select().from(subscriptions).where(eq(subscriptions.contactId, contactId))).map((row) => [
      row.topicId,
      row.state,
    ]),
  );

describe("unsubscribing a contact on the person's behalf", () => {
  it("from one topic: the same opt-out and contact.unsubscribed event as the person's own link, with its webhooks, and the member and note kept beside it", async () => {
    const { workspaceId, brandId, news, offers, ada, bob, member, memberEmail } = await setup();
    expect(await unsubscribeOnBehalf(ctx, member, { contactId: ada, topicId: news, note: " asked by phone " })).toEqual(
      {
        changed: true,
      },
    );
    // The person's own link, for comparison.
    await unsubscribe(ctx, { contactId: bob, scope: "topic", topicId: news });

    expect(await statesOf(ada)).toEqual({ [news]: "unsubscribed", [offers]: "subscribed" });
    expect(await statesOf(ada)).toEqual(await statesOf(bob));
    const [byMember] = await unsubscribedEvents(workspaceId, ada);
    const [byPerson] = await unsubscribedEvents(workspaceId, bob);
    expect(unsubscribedPayload.parse(byMember!.data)).toEqual({
      contact_id: ada,
      email: "ada@example.com",
      scope: "topic",
      topic_id: news,
      topic_name: expect.any(String),
      brand_id: brandId,
      campaign_id: null,
      occurred_at: ctx.clock.now().toISOString(),
    });
    expect({ ...byMember!.data, contact_id: bob, email: "bob@example.com" }).toEqual(byPerson!.data);
    for (const event of [byMember!, byPerson!])
      expect(await ctx.db.$count(webhookDeliveries, eq(webhookDeliveries.eventId, event.id))).toBe(1);

    expect(await ctx.db.select().from(optOutsOnBehalf).where(eq(optOutsOnBehalf.contactId, ada))).toMatchObject([
      {
        contactId: ada,
        eventId: byMember!.id,
        scope: "topic",
        topicId: news,
        madeBy: `user:${member.userId}`,
        note: "asked by phone",
      },
    ]);
    const timeline = (await getContactDetailsOrThrow(ctx, member, ada)).timeline;
    expect(timeline.find((entry) => entry.id === byMember!.id)!.onBehalf).toEqual({
      by: memberEmail,
      note: "asked by phone",
    });
    expect((await getContactDetailsOrThrow(ctx, member, bob)).timeline.every((entry) => entry.onBehalf === null)).toBe(
      true,
    );
  });

  it("from everything: every subscription ends, the contact is opted out of everything, and the API cannot subscribe them again", async () => {
    const { workspaceId, news, offers, ada, member } = await setup();
    await unsubscribeOnBehalf(ctx, member, { contactId: ada, topicId: null, note: "Letter of 2 March" });
    expect(await statesOf(ada)).toEqual({ [news]: "unsubscribed", [offers]: "unsubscribed" });
    expect((await ctx.db.select().from(contacts).where(eq(contacts.id, ada)))[0]!.optedOutAt).toEqual(ctx.clock.now());
    const [event] = await unsubscribedEvents(workspaceId, ada);
    expect(unsubscribedPayload.parse(event!.data)).toMatchObject({ scope: "all", topic_id: null, brand_id: null });
    expect(await ctx.db.select().from(optOutsOnBehalf).where(eq(optOutsOnBehalf.contactId, ada))).toMatchObject([
      { contactId: ada, eventId: event!.id, scope: "all", topicId: null, note: "Letter of 2 March" },
    ]);
    await expect(
      upsertContact(ctx, systemActor("test", workspaceId), { email: "ada@example.com", topicIds: [news] }),
    ).rejects.toMatchObject({ code: "contact_unsubscribed" });
    expect((await getContactDetailsOrThrow(ctx, member, ada)).contact.status).toBe("unsubscribed");
  });

  it("the note is required: without one it is validation_failed on note and nothing changes", async () => {
    const { news, ada, member } = await setup();
    const raw = rawClient(ctx.db);
    const before = await checksumTables(raw);
    for (const note of ["", "   "])
      await expect(unsubscribeOnBehalf(ctx, member, { contactId: ada, topicId: news, note })).rejects.toMatchObject({
        code: "validation_failed",
        param: "note",
      });
    expect(changedTables(before, await checksumTables(raw))).toEqual([]);
  });

  it("an opt-out already made changes nothing and records nothing", async () => {
    const { workspaceId, news, ada, member } = await setup();
    await unsubscribeOnBehalf(ctx, member, { contactId: ada, topicId: news, note: "asked by phone" });
    expect(await unsubscribeOnBehalf(ctx, member, { contactId: ada, topicId: news, note: "asked again" })).toEqual({
      changed: false,
    });
    expect(await unsubscribedEvents(workspaceId, ada)).toHaveLength(1);
    expect(await ctx.db.$count(optOutsOnBehalf, eq(optOutsOnBehalf.contactId, ada))).toBe(1);
  });

  it("another workspace's contact or topic is not found, and nothing changes", async () => {
    const a = await setup();
    const b = await setup();
    const raw = rawClient(ctx.db);
    const before = await checksumTables(raw);
    await expect(
      unsubscribeOnBehalf(ctx, a.member, { contactId: b.ada, topicId: null, note: "asked by phone" }),
    ).rejects.toMatchObject({ code: "contact_not_found" });
    await expect(
      unsubscribeOnBehalf(ctx, a.member, { contactId: b.ada, topicId: b.news, note: "asked by phone" }),
    ).rejects.toMatchObject({ code: "contact_not_found" });
    await expect(
      unsubscribeOnBehalf(ctx, a.member, { contactId: a.ada, topicId: b.news, note: "asked by phone" }),
    ).rejects.toMatchObject({ code: "topic_not_found", param: "topicId" });
    expect(changedTables(before, await checksumTables(raw))).toEqual([]);
  });
});
