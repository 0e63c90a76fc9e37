import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { listBrands } from "@/lib/brands/list-brands";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { editContact } from "@/lib/contacts/edit-contact";
import { getContactDetailsOrThrow } from "@/lib/contacts/get-contact-details";
import { listAttributeDefinitions } from "@/lib/contacts/list-attribute-definitions";
import { listContacts } from "@/lib/contacts/list-contacts";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { lists, topics } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { deleteList } from "@/lib/lists/delete-list";
import { getListOrThrow } from "@/lib/lists/get-list-or-throw";
import { listListMembers } from "@/lib/lists/list-list-members";
import { addListMembers } from "@/lib/lists/list-membership";
import { updateList } from "@/lib/lists/update-list";
import { listMembers } from "@/lib/members/list-members";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { updateTopic } from "@/lib/topics/update-topic";
import { getSetupChecklist } from "@/lib/workspaces/get-setup-checklist";

const { ctx } = testCtx();

/** Two workspaces, each with a topic, a list holding one contact, a key and an attribute. */
async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const seeded = async (workspace: typeof a) => {
    const operator = systemActor("test", workspace.workspaceId);
    const topicId = await seedTopic(ctx, workspace.workspaceId, workspace.brandId);
    const { listId } = await createList(ctx, operator, { brandId: workspace.brandId, name: "Customers" });
    const { contact } = await upsertContact(ctx, operator, {
      email: "same@example.com",
      firstName: "Ada",
      topicIds: [topicId],
    });
    await addListMembers(ctx, operator, listId, [contact.id]);
    await createApiKey(ctx, operator, { kind: "secret", environment: "live" });
    await defineAttribute(ctx, operator, { key: "plan", type: "string" });
    return { ...workspace, topicId, listId, contactId: contact.id };
  };
  return { a: await seeded(a), b: await seeded(b), memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

describe("the dashboard's reads and writes stay in the member's workspace", () => {
  it("updateTopic: a member of workspace A cannot rename workspace B's topic", async () => {
    const { b, memberOfA } = await tenants();
    await expect(updateTopic(ctx, memberOfA, b.topicId, { name: "Taken" })).rejects.toMatchObject({
      code: "topic_not_found",
    });
    expect((await ctx.db.select().from(topics).where(eq(topics.id, b.topicId)))[0]!.name).not.toBe("Taken");
  });

  it("updateList, deleteList, getListOrThrow, listListMembers: a member of workspace A cannot reach workspace B's list", async () => {
    const { b, memberOfA } = await tenants();
    await expect(updateList(ctx, memberOfA, b.listId, { name: "Taken" })).rejects.toMatchObject({
      code: "list_not_found",
    });
    await expect(deleteList(ctx, memberOfA, b.listId)).rejects.toMatchObject({ code: "list_not_found" });
    await expect(getListOrThrow(ctx, memberOfA, b.listId)).rejects.toMatchObject({ code: "list_not_found" });
    expect(await listListMembers(ctx, memberOfA, b.listId, { limit: 10, afterContactId: null })).toEqual([]);
    expect((await ctx.db.select().from(lists).where(eq(lists.id, b.listId)))[0]!.name).toBe("Customers");
  });

  it("getContactDetailsOrThrow: a member of workspace A cannot read workspace B's contact", async () => {
    const { a, b, memberOfA } = await tenants();
    await expect(getContactDetailsOrThrow(ctx, memberOfA, b.contactId)).rejects.toMatchObject({
      code: "contact_not_found",
    });
    const own = await getContactDetailsOrThrow(ctx, memberOfA, a.contactId);
    expect(own.subscriptions.map((subscription) => subscription.topicId)).toEqual([a.topicId]);
    expect(own.lists.map((list) => list.id)).toEqual([a.listId]);
  });

  it("editContact: a member of workspace A cannot rename workspace B's contact", async () => {
    const { a, b, memberOfA } = await tenants();
    await expect(
      editContact(ctx, memberOfA, { contactId: b.contactId, firstName: "Taken", lastName: "" }),
    ).rejects.toMatchObject({ code: "contact_not_found" });
    expect(
      (await getContactDetailsOrThrow(ctx, systemActor("test", b.workspaceId), b.contactId)).contact.firstName,
    ).toBe("Ada");
    await editContact(ctx, memberOfA, { contactId: a.contactId, firstName: "Grace", lastName: "" });
    expect((await getContactDetailsOrThrow(ctx, memberOfA, a.contactId)).contact).toMatchObject({
      firstName: "Grace",
      lastName: null,
    });
  });

  it("listContacts with a list filter: workspace B's list finds nothing from workspace A", async () => {
    const { a, b, memberOfA } = await tenants();
    const page = { limit: 10, afterId: null };
    expect((await listContacts(ctx, memberOfA, { listId: a.listId }, page)).map((contact) => contact.id)).toEqual([
      a.contactId,
    ]);
    expect(await listContacts(ctx, memberOfA, { listId: b.listId }, page)).toEqual([]);
    expect((await listContacts(ctx, memberOfA, { search: "ad" }, page)).map((contact) => contact.id)).toEqual([
      a.contactId,
    ]);
    expect(await listContacts(ctx, memberOfA, { search: "%" }, page)).toEqual([]);
  });

  it("listBrands, listApiKeys, listAttributeDefinitions, listMembers, getSetupChecklist: only the member's workspace", async () => {
    const { a, memberOfA } = await tenants();
    expect((await listBrands(ctx, memberOfA)).map((brand) => brand.id)).toEqual([a.brandId]);
    expect(await listApiKeys(ctx, memberOfA)).toHaveLength(1);
    expect((await listAttributeDefinitions(ctx, memberOfA)).map((attribute) => attribute.key)).toEqual(["plan"]);
    expect((await listMembers(ctx, memberOfA)).map((member) => member.userId)).toEqual([a.ownerUserId]);
    expect(await getSetupChecklist(ctx, memberOfA)).toEqual({
      brand: true,
      domain: false,
      review: false,
      topic: true,
      key: true,
      campaign: false,
    });
  });
});

describe("a contact added in the dashboard", () => {
  it("records source dashboard on its subscriptions; the API's record source api", async () => {
    const { a, memberOfA } = await tenants();
    const { contact } = await upsertContact(ctx, memberOfA, { email: "walk-in@example.com", topicIds: [a.topicId] });
    const details = await getContactDetailsOrThrow(ctx, memberOfA, contact.id);
    expect(details.subscriptions).toMatchObject([{ topicId: a.topicId, state: "subscribed", source: "dashboard" }]);
    expect((await getContactDetailsOrThrow(ctx, memberOfA, a.contactId)).subscriptions).toMatchObject([
      { source: "api" },
    ]);
  });
});
