import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, type WorkspaceActor } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { confirmationRequests, contacts, events, subscriptions } from "@/lib/db/schema";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { apiClient } from "@/lib/testing/api-client";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { signToken } from "@/lib/tokens/signed-token";

import { confirmSubscription } from "./confirm-subscription";
import { decideConfirmation } from "./decide-confirmation";
import { loadPreferences, savePreferences } from "./preferences";
import { resubscribe } from "./resubscribe";
import { unsubscribe } from "./unsubscribe";

const { ctx, clock } = testCtx(new Date("2026-04-01T12:00:00.000Z"));
const evidence = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (Mail test)" };

async function setup() {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const actor = systemActor("test", workspaceId);
  return { workspaceId, brandId, topicId, actor };
}

/** A pending subscription whose confirmation mail went out now; returns the link's token. */
async function pendingWithMail(actor: WorkspaceActor, topicId: string, email: string) {
  await subscribeFromForm(ctx, actor, { topicId, email });
  const [request] = await ctx.db
    .select()
    .from(confirmationRequests)
    .where(and(eq(confirmationRequests.workspaceId, actor.workspaceId), eq(confirmationRequests.email, email)));
  expect(await decideConfirmation(ctx, request!.id)).toEqual({ send: true });
  return signToken("confirm", { r: request!.id });
}

const stateOf = async (contactEmail: string, topicId: string) => {
  const [row] = await ctx.db
    .select({ subscription: subscriptions })
    .from(subscriptions)
    .innerJoin(contacts, eq(contacts.id, subscriptions.contactId))
    .where(and(eq(contacts.email, contactEmail), eq(subscriptions.topicId, topicId)));
  return row?.subscription;
};
const eventsOf = (workspaceId: string, type: string) =>
  ctx.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), eq(events.type, type)));

describe("double opt-in confirmation", () => {
  it("a link at most 14 days old confirms: time and IP stored, contact.subscribed with source double_opt_in", async () => {
    const { workspaceId, topicId, actor, brandId } = await setup();
    const token = await pendingWithMail(actor, topicId, "ok@example.com");
    clock.advance(13 * 24 * 60 * 60_000);
    const result = await confirmSubscription(ctx, token, evidence);
    expect(result.outcome).toBe("confirmed");
    expect(await stateOf("ok@example.com", topicId)).toMatchObject({
      state: "subscribed",
      source: "double_opt_in",
      confirmedAt: clock.now(),
      confirmedIp: "203.0.113.7",
      confirmedUserAgent: "Mozilla/5.0 (Mail test)",
    });
    const [event] = await eventsOf(workspaceId, "contact.subscribed");
    expect(event!.data).toEqual({
      contact_id: expect.any(String),
      email: "ok@example.com",
      topic_id: topicId,
      topic_name: expect.any(String),
      brand_id: brandId,
      source: "double_opt_in",
      occurred_at: clock.now().toISOString(),
    });
  });

  it("confirmation by GET is idempotent: a second visit says already confirmed and records nothing", async () => {
    const { workspaceId, topicId, actor } = await setup();
    const token = await pendingWithMail(actor, topicId, "twice@example.com");
    expect((await confirmSubscription(ctx, token, evidence)).outcome).toBe("confirmed");
    expect((await confirmSubscription(ctx, token, { ip: "198.51.100.1", userAgent: "scanner" })).outcome).toBe(
      "already_confirmed",
    );
    expect((await stateOf("twice@example.com", topicId))!.confirmedIp).toBe("203.0.113.7");
    expect(await eventsOf(workspaceId, "contact.subscribed")).toHaveLength(1);
  });

  it("a link older than 14 days is refused and the subscription stays pending", async () => {
    const { topicId, actor } = await setup();
    const token = await pendingWithMail(actor, topicId, "late@example.com");
    clock.advance(14 * 24 * 60 * 60_000 + 1000);
    expect((await confirmSubscription(ctx, token, evidence)).outcome).toBe("expired");
    expect((await stateOf("late@example.com", topicId))!.state).toBe("pending");
  });

  it("a forged, altered or unsent link is refused", async () => {
    const { topicId, actor } = await setup();
    const token = await pendingWithMail(actor, topicId, "f@example.com");
    expect(await confirmSubscription(ctx, `${token}x`, evidence)).toEqual({ outcome: "invalid" });
    expect(await confirmSubscription(ctx, signToken("unsubscribe", { r: "x" }), evidence)).toEqual({
      outcome: "invalid",
    });
    expect(await confirmSubscription(ctx, signToken("confirm", { r: "cfr_never_mailed" }), evidence)).toEqual({
      outcome: "invalid",
    });
  });

  it("subscriber_count counts confirmed subscriptions only", async () => {
    const { workspaceId, topicId, actor } = await setup();
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    const token = await pendingWithMail(actor, topicId, "count@example.com");
    await subscribeFromForm(ctx, actor, { topicId, email: "other@example.com" });
    expect((await api.get("/v1/topics")).body.data[0].subscriber_count).toBe(0);
    await confirmSubscription(ctx, token, evidence);
    expect((await api.get("/v1/topics")).body.data[0].subscriber_count).toBe(1);
  });
});

describe("unsubscribe, preferences and resubscribe", () => {
  async function subscribed() {
    const base = await setup();
    const { contact } = await upsertContact(ctx, base.actor, {
      email: `p${Date.now()}${Math.random()}@example.com`,
      topicIds: [base.topicId],
    });
    return { ...base, contactId: contact.id, email: contact.email };
  }

  it("the unsubscribe link unsubscribes from the topic only; contact.unsubscribed with scope topic, topic, brand and campaign", async () => {
    const { workspaceId, brandId, topicId, contactId, email, actor } = await subscribed();
    const other = await seedTopic(ctx, workspaceId, brandId);
    await upsertContact(ctx, actor, { email, topicIds: [other] });
    expect(await unsubscribe(ctx, { contactId, scope: "topic", topicId, campaignId: "cmp_1" })).toEqual({
      changed: true,
    });
    expect((await stateOf(email, topicId))!.state).toBe("unsubscribed");
    expect((await stateOf(email, other))!.state).toBe("subscribed");
    const [event] = await eventsOf(workspaceId, "contact.unsubscribed");
    expect(event!.data).toEqual({
      contact_id: contactId,
      email,
      scope: "topic",
      topic_id: topicId,
      topic_name: expect.any(String),
      brand_id: brandId,
      campaign_id: "cmp_1",
      occurred_at: clock.now().toISOString(),
    });
    // Idempotent.
    expect(await unsubscribe(ctx, { contactId, scope: "topic", topicId })).toEqual({ changed: false });
    expect(await eventsOf(workspaceId, "contact.unsubscribed")).toHaveLength(1);
  });

  it("scope brand leaves every topic of the brand and no other brand's", async () => {
    const { workspaceId, brandId, topicId, contactId, email, actor } = await subscribed();
    const { brandId: otherBrand } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "Other",
      legalName: "Other Ltd",
      postalAddress: "9 Rd",
      websiteUrl: "https://o.test",
      senderEmail: "o@o.test",
    });
    const otherBrandTopic = await seedTopic(ctx, workspaceId, otherBrand);
    await upsertContact(ctx, actor, { email, topicIds: [otherBrandTopic] });
    await unsubscribe(ctx, { contactId, scope: "brand", brandId });
    expect((await stateOf(email, topicId))!.state).toBe("unsubscribed");
    expect((await stateOf(email, otherBrandTopic))!.state).toBe("subscribed");
    const [event] = await eventsOf(workspaceId, "contact.unsubscribed");
    expect(event!.data).toMatchObject({ scope: "brand", brand_id: brandId, topic_id: null, topic_name: null });
  });

  it("scope all: the contact is unsubscribed from everything and the API can no longer subscribe them", async () => {
    const { workspaceId, topicId, contactId, email } = await subscribed();
    await unsubscribe(ctx, { contactId, scope: "all" });
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    expect((await api.get(`/v1/contacts/${contactId}`)).body.data.status).toBe("unsubscribed");
    expect((await api.post("/v1/contacts", { email, topic_ids: [topicId] })).body.error.code).toBe(
      "contact_unsubscribed",
    );
    expect((await eventsOf(workspaceId, "contact.unsubscribed"))[0]!.data).toMatchObject({
      scope: "all",
      brand_id: null,
    });
  });

  it("resubscribing from a link in mail already sent is the only path back; it fires contact.subscribed with source double_opt_in", async () => {
    const { workspaceId, topicId, contactId, email } = await subscribed();
    await unsubscribe(ctx, { contactId, scope: "all" });
    expect(await resubscribe(ctx, { contactId, topicId })).toEqual({ changed: true });
    expect((await stateOf(email, topicId))!).toMatchObject({ state: "subscribed", source: "double_opt_in" });
    const api = apiClient((await seedKey(ctx, workspaceId)).key);
    expect((await api.get(`/v1/contacts/${contactId}`)).body.data.status).toBe("subscribed");
    const subscribedEvents = await eventsOf(workspaceId, "contact.subscribed");
    expect(subscribedEvents.at(-1)!.data).toMatchObject({ source: "double_opt_in", topic_id: topicId });
    expect(await resubscribe(ctx, { contactId, topicId })).toEqual({ changed: false });
  });

  it("the preference centre shows only topics the recipient already has a relationship with, and saves per-topic choices", async () => {
    const { workspaceId, brandId, topicId, contactId, email, actor } = await subscribed();
    const second = await seedTopic(ctx, workspaceId, brandId);
    const unrelated = await seedTopic(ctx, workspaceId, brandId);
    await upsertContact(ctx, actor, { email, topicIds: [second] });
    const prefs = await loadPreferences(ctx, contactId, brandId);
    expect(prefs!.topics.map((t) => t.id).sort()).toEqual([topicId, second].sort());
    expect(prefs!.topics.every((t) => t.subscribed)).toBe(true);

    await savePreferences(ctx, { contactId, brandId }, [second, unrelated]);
    expect((await stateOf(email, topicId))!.state).toBe("unsubscribed");
    expect((await stateOf(email, second))!.state).toBe("subscribed");
    expect(await stateOf(email, unrelated)).toBeUndefined();

    await savePreferences(ctx, { contactId, brandId }, [topicId, second]);
    expect((await stateOf(email, topicId))!.state).toBe("subscribed");
  });
});
