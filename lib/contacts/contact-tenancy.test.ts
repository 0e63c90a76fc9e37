import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { attributeDefinitions, contacts, subscriptions } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { getContactOrThrow } from "./contact-view";
import { defineAttribute } from "./define-attribute";
import { listContacts } from "./list-contacts";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();
const operator = systemActor("test");
const page = { limit: 100, afterId: null };

/** B has a subscribed contact; A has one at the same address. */
async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const topicOfB = await seedTopic(ctx, b.workspaceId, b.brandId, { requiresConfirmation: false });
  const contactOfA = (
    await upsertContact(ctx, systemActor("test", a.workspaceId), { email: "same@example.com", firstName: "A" })
  ).contact.id;
  const contactOfB = (
    await upsertContact(ctx, systemActor("test", b.workspaceId), {
      email: "same@example.com",
      firstName: "B",
      topicIds: [topicOfB],
    })
  ).contact.id;
  return { a, b, topicOfB, contactOfA, contactOfB, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const rowsIn = async (workspaceId: string) => ({
  contacts: await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId)),
  subscriptions: await ctx.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId)),
});

describe("contacts are reached only from their own workspace", () => {
  it("getContactOrThrow: a member of workspace A cannot read workspace B's contact; the operator can", async () => {
    const { contactOfA, contactOfB, memberOfA } = await tenants();
    await expect(getContactOrThrow(ctx, memberOfA, contactOfB)).rejects.toMatchObject({ code: "contact_not_found" });
    expect((await getContactOrThrow(ctx, memberOfA, contactOfA)).firstName).toBe("A");
    expect((await getContactOrThrow(ctx, operator, contactOfB)).firstName).toBe("B");
  });

  it("listContacts: a member of workspace A sees A's contacts only and cannot filter by B's topic; the operator must name a workspace", async () => {
    const { b, topicOfB, contactOfA, contactOfB, memberOfA } = await tenants();
    expect((await listContacts(ctx, memberOfA, {}, page)).map((c) => c.id)).toEqual([contactOfA]);
    await expect(listContacts(ctx, memberOfA, { topicId: topicOfB }, page)).rejects.toMatchObject({
      code: "topic_not_found",
    });
    await expect(listContacts(ctx, operator, {}, page)).rejects.toMatchObject({ code: "workspace_required" });
    expect(
      (await listContacts(ctx, systemActor("test", b.workspaceId), { topicId: topicOfB }, page)).map((c) => c.id),
    ).toEqual([contactOfB]);
  });

  it("upsertContact: a member of workspace A cannot subscribe to workspace B's topic and changes nothing in B; the operator must name a workspace", async () => {
    const { b, topicOfB, memberOfA } = await tenants();
    const before = await rowsIn(b.workspaceId);
    await expect(
      upsertContact(ctx, memberOfA, { email: "same@example.com", firstName: "Overwritten", topicIds: [topicOfB] }),
    ).rejects.toMatchObject({ code: "topic_not_found" });
    await upsertContact(ctx, memberOfA, { email: "same@example.com", firstName: "Overwritten" });
    await expect(upsertContact(ctx, operator, { email: "same@example.com" })).rejects.toMatchObject({
      code: "workspace_required",
    });
    expect(await rowsIn(b.workspaceId)).toEqual(before);
  });

  it("defineAttribute: the attribute is defined in the actor's workspace; an input naming workspace B is refused, and so is the operator without a workspace", async () => {
    const { a, b, memberOfA } = await tenants();
    const namingB = { key: "plan", type: "string" as const, workspaceId: b.workspaceId };
    await expect(defineAttribute(ctx, memberOfA, namingB)).rejects.toMatchObject({
      code: "validation_failed",
      param: "workspaceId",
    });
    await expect(defineAttribute(ctx, operator, { key: "plan", type: "string" })).rejects.toMatchObject({
      code: "workspace_required",
    });
    await defineAttribute(ctx, memberOfA, { key: "plan", type: "number" });
    expect(
      await ctx.db.select().from(attributeDefinitions).where(eq(attributeDefinitions.workspaceId, b.workspaceId)),
    ).toEqual([]);
    expect(
      await ctx.db.select().from(attributeDefinitions).where(eq(attributeDefinitions.workspaceId, a.workspaceId)),
    ).toMatchObject([{ key: "plan", type: "number" }]);
  });
});
