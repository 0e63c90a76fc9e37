import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { systemActor, userActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { listMembers, lists } from "@/lib/db/schema";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { createList } from "./create-list";
import { listLists } from "./list-lists";
import { addListMembers, removeListMembers } from "./list-membership";

const { ctx } = testCtx();
const operator = systemActor("test");
const page = { limit: 100, afterId: null };

/** Each workspace has a list and a contact; B's contact is on B's list. */
async function tenants() {
  const a = await seedWorkspace(ctx);
  const b = await seedWorkspace(ctx);
  const actorOfA = systemActor("test", a.workspaceId);
  const actorOfB = systemActor("test", b.workspaceId);
  const { listId: listOfA } = await createList(ctx, actorOfA, { brandId: a.brandId, name: "A list" });
  const { listId: listOfB } = await createList(ctx, actorOfB, { brandId: b.brandId, name: "B list" });
  const contactOfA = (await upsertContact(ctx, actorOfA, { email: "same@example.com" })).contact.id;
  const contactOfB = (await upsertContact(ctx, actorOfB, { email: "same@example.com" })).contact.id;
  await addListMembers(ctx, actorOfB, listOfB, [contactOfB]);
  return { a, b, listOfA, listOfB, contactOfA, contactOfB, memberOfA: userActor(a.ownerUserId, a.workspaceId) };
}

const membersOf = async (listId: string) =>
  (await ctx.db.select().from(listMembers).where(eq(listMembers.listId, listId))).map((m) => m.contactId);

describe("lists are reached only from their own workspace", () => {
  it("createList: a member of workspace A cannot create a list on workspace B's brand; the operator must name a workspace", async () => {
    const { b, listOfB, memberOfA } = await tenants();
    await expect(createList(ctx, memberOfA, { brandId: b.brandId, name: "Intruder" })).rejects.toMatchObject({
      code: "brand_not_found",
    });
    await expect(createList(ctx, operator, { brandId: b.brandId, name: "Nowhere" })).rejects.toMatchObject({
      code: "workspace_required",
    });
    expect((await ctx.db.select().from(lists).where(eq(lists.workspaceId, b.workspaceId))).map((l) => l.id)).toEqual([
      listOfB,
    ]);
  });

  it("listLists: a member of workspace A sees A's lists only; the operator sees B's too", async () => {
    const { listOfA, listOfB, memberOfA } = await tenants();
    expect((await listLists(ctx, memberOfA, page)).map((l) => l.id)).toEqual([listOfA]);
    expect((await listLists(ctx, operator, page)).map((l) => l.id)).toEqual(expect.arrayContaining([listOfA, listOfB]));
  });

  it("addListMembers: a member of workspace A cannot add to workspace B's list, nor put B's contact on A's list; the operator adds within B only", async () => {
    const { listOfA, listOfB, contactOfA, contactOfB, memberOfA } = await tenants();
    await expect(addListMembers(ctx, memberOfA, listOfB, [contactOfA])).rejects.toMatchObject({
      code: "list_not_found",
    });
    await expect(addListMembers(ctx, memberOfA, listOfA, [contactOfB])).rejects.toMatchObject({
      code: "contact_not_found",
    });
    await expect(addListMembers(ctx, operator, listOfB, [contactOfA])).rejects.toMatchObject({
      code: "contact_not_found",
    });
    expect(await membersOf(listOfB)).toEqual([contactOfB]);
    expect(await membersOf(listOfA)).toEqual([]);
    expect(await addListMembers(ctx, operator, listOfB, [contactOfB])).toMatchObject({
      added: 0,
      alreadyMembers: 1,
      memberCount: 1,
    });
  });

  it("removeListMembers: a member of workspace A cannot remove from workspace B's list; the operator can", async () => {
    const { listOfB, contactOfB, memberOfA } = await tenants();
    await expect(removeListMembers(ctx, memberOfA, listOfB, [contactOfB])).rejects.toMatchObject({
      code: "list_not_found",
    });
    expect(await membersOf(listOfB)).toEqual([contactOfB]);
    expect(await removeListMembers(ctx, operator, listOfB, [contactOfB])).toMatchObject({ removed: 1, memberCount: 0 });
  });
});
