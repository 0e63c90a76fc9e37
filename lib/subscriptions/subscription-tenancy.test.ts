import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { confirmationRequests, contacts, events, subscriptions, topics } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { subscribeDirectly } from "./subscribe-directly";
import { subscribeFromForm } from "./subscribe-from-form";

const { ctx } = testCtx();
const operator = systemActor("test");

const topicRow = async (topicId: string) => (await ctx.db.select().from(topics).where(eq(topics.id, topicId)))[0]!;
const contactRow = async (contactId: string) =>
  (await ctx.db.select().from(contacts).where(eq(contacts.id, contactId)))[0]!;

async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const topicOfA = await seedTopic(ctx, a.workspaceId, a.brandId, { requiresConfirmation: false });
  const topicOfB = await seedTopic(ctx, b.workspaceId, b.brandId);
  const contactOfA = await contactRow(
    (await upsertContact(ctx, systemActor("test", a.workspaceId), { email: "a@example.com" })).contact.id,
  );
  const contactOfB = await contactRow(
    (await upsertContact(ctx, systemActor("test", b.workspaceId), { email: "b@example.com" })).contact.id,
  );
  return { a, b, topicOfA, topicOfB, contactOfA, contactOfB, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const rowsIn = async (workspaceId: string) => ({
  contacts: await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId)),
  subscriptions: await ctx.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId)),
  requests: await ctx.db.select().from(confirmationRequests).where(eq(confirmationRequests.workspaceId, workspaceId)),
  events: await ctx.db.select().from(events).where(eq(events.workspaceId, workspaceId)),
});

describe("subscriptions are made only in the actor's workspace", () => {
  it("subscribeFromForm: a key of workspace A cannot sign anyone up to workspace B's topic; the operator must name a workspace", async () => {
    const { a, b, topicOfB } = await tenants();
    const formOfA = apiKeyActor({ keyId: "key_form_a", workspaceId: a.workspaceId, brandId: null, mode: "live" });
    const before = await rowsIn(b.workspaceId);
    await expect(
      subscribeFromForm(ctx, formOfA, { topicId: topicOfB, email: "new@example.com" }),
    ).rejects.toMatchObject({ code: "topic_not_found" });
    await expect(
      subscribeFromForm(ctx, operator, { topicId: topicOfB, email: "new@example.com" }),
    ).rejects.toMatchObject({ code: "workspace_required" });
    expect(await rowsIn(b.workspaceId)).toEqual(before);
    expect(
      await subscribeFromForm(ctx, systemActor("test", b.workspaceId), { topicId: topicOfB, email: "new@example.com" }),
    ).toMatchObject({ status: "confirmation_sent" });
    expect((await rowsIn(b.workspaceId)).requests).toHaveLength(1);
  });

  it("subscribeDirectly: a member of workspace A cannot subscribe workspace B's contact or subscribe to B's topic; the operator must name a workspace", async () => {
    const { b, topicOfA, topicOfB, contactOfA, contactOfB, memberOfA } = await tenants();
    const before = await rowsIn(b.workspaceId);
    await expect(
      subscribeDirectly(ctx, memberOfA, contactOfB, [await topicRow(topicOfA)], "api"),
    ).rejects.toMatchObject({ code: "contact_not_found" });
    await expect(
      subscribeDirectly(ctx, memberOfA, contactOfA, [await topicRow(topicOfB)], "api"),
    ).rejects.toMatchObject({ code: "topic_not_found" });
    await expect(subscribeDirectly(ctx, operator, contactOfB, [await topicRow(topicOfB)], "api")).rejects.toMatchObject(
      { code: "workspace_required" },
    );
    expect(await rowsIn(b.workspaceId)).toEqual(before);
    expect(
      await subscribeDirectly(ctx, systemActor("test", b.workspaceId), contactOfB, [await topicRow(topicOfB)], "api"),
    ).toEqual([topicOfB]);
  });
});
