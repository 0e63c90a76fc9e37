import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { campaigns, memberships, users } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { unsubscribeOnBehalf } from "@/lib/subscriptions/unsubscribe-on-behalf";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { exportContactData } from "./export-contact-data";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();

/**
 * A contact sent one campaign (a subscription, a send, the events of both), put on a list,
 * suppressed by hand, and unsubscribed from a second topic by a member who noted why.
 */
async function seededContact() {
  const { workspaceId, campaignId, contactId, send } = await seedAcceptedSend(ctx, "ada@example.com");
  const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  const operator = systemActor("test", workspaceId);
  const { listId } = await createList(ctx, operator, { brandId: campaign!.brandId, name: "Customers" });
  await addListMembers(ctx, operator, listId, [contactId]);
  await createSuppression(ctx, operator, { email: "ada@example.com", note: "asked us to pause" });
  const otherTopic = await seedTopic(ctx, workspaceId, campaign!.brandId, { requiresConfirmation: false });
  await upsertContact(ctx, operator, { email: "ada@example.com", topicIds: [otherTopic] });
  // Signed up through the form API to a double opt-in topic: pending, its confirmation mail asked for.
  const pendingTopic = await seedTopic(ctx, workspaceId, campaign!.brandId, { requiresConfirmation: true });
  await subscribeFromForm(ctx, operator, { topicId: pendingTopic, email: "ada@example.com" });
  const [{ owner }] = (await ctx.db
    .select({ owner: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))) as [{ owner: typeof users.$inferSelect }];
  await unsubscribeOnBehalf(ctx, userActor(owner.id, workspaceId), {
    contactId,
    topicId: otherTopic,
    note: "asked by phone",
  });
  return { workspaceId, campaign: campaign!, contactId, send, listId, otherTopic, pendingTopic, owner };
}

describe("a contact's data, for the person's access request", () => {
  it("holds the contact's fields and attributes, subscriptions with their consent evidence, lists, suppressions, sends with outcomes and events", async () => {
    const { workspaceId, campaign, contactId, send, listId, otherTopic, pendingTopic, owner } = await seededContact();
    const data = await exportContactData(ctx, userActor(owner.id, workspaceId), contactId);
    expect(data.workspace_id).toBe(workspaceId);
    expect(data.contact).toMatchObject({
      id: contactId,
      email: "ada@example.com",
      first_name: "R",
      last_name: null,
      time_zone: null,
      status: "unsubscribed",
      attributes: {},
      created_at: expect.stringMatching(/Z$/),
    });
    expect(data.subscriptions).toEqual([
      expect.objectContaining({
        topic_id: campaign.topicId,
        brand_id: campaign.brandId,
        state: "subscribed",
        source: "api",
        subscribed_at: expect.any(String),
        confirmation_mails: [],
        signup_forms: [],
      }),
      expect.objectContaining({ topic_id: otherTopic, state: "unsubscribed", unsubscribed_at: expect.any(String) }),
      expect.objectContaining({
        topic_id: pendingTopic,
        state: "pending",
        confirmation_mails: [
          { to: "ada@example.com", requested_at: expect.any(String), mailed_at: null, not_mailed_because: null },
        ],
      }),
    ]);
    expect(data.opt_outs_on_behalf).toEqual([
      expect.objectContaining({ scope: "topic", topic_id: otherTopic, made_by: owner.email, note: "asked by phone" }),
    ]);
    expect(data.lists).toEqual([expect.objectContaining({ id: listId, name: "Customers" })]);
    expect(data.suppressions).toEqual([
      expect.objectContaining({
        email: "ada@example.com",
        reason: "manual",
        note: "asked us to pause",
        evidence: null,
      }),
    ]);
    expect(data.lifted_suppressions).toEqual([]);
    expect(data.sends).toEqual([
      expect.objectContaining({
        id: send.id,
        campaign_id: campaign.id,
        campaign_name: "Launch",
        state: "accepted",
        accepted_at: send.acceptedAt!.toISOString(),
      }),
    ]);
    expect(data.events.map((event) => [event.type, (event.data as { topic_id?: string }).topic_id])).toEqual([
      ["contact.subscribed", campaign.topicId],
      ["contact.subscribed", otherTopic],
      ["contact.unsubscribed", otherTopic],
    ]);
    expect(data.opt_outs_on_behalf[0]!.event_id).toBe(data.events[2]!.id);
    // A file to hand over: plain JSON, nothing lost in the round trip.
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it("another workspace's member or API key gets contact_not_found, and so does an id of no contact", async () => {
    const { workspaceId, contactId } = await seededContact();
    const other = await seedWorkspace(ctx);
    const { keyId } = await seedKey(ctx, other.workspaceId);
    for (const outsider of [
      userActor(other.ownerUserId, other.workspaceId),
      apiKeyActor({ keyId, workspaceId: other.workspaceId, brandId: null, mode: "live" }),
      systemActor("admin-cli", other.workspaceId),
    ])
      await expect(exportContactData(ctx, outsider, contactId)).rejects.toMatchObject({ code: "contact_not_found" });
    await expect(exportContactData(ctx, systemActor("admin-cli", workspaceId), "ct_nobody")).rejects.toMatchObject({
      code: "contact_not_found",
    });
    expect((await exportContactData(ctx, systemActor("admin-cli", workspaceId), contactId)).contact.id).toBe(contactId);
  });
});
