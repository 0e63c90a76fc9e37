import "server-only";

import { and, count, eq, inArray } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";
import { contactIdsQuery } from "@/lib/automations/enter-by-trigger";
import { enterListAdded } from "@/lib/automations/trigger-matching";
import { contactErased, isErasedContact } from "@/lib/contacts/erased-address";
import { withTransaction, type Ctx } from "@/lib/context";
import { contacts, listMembers, lists } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/** The actor's list, locked; another workspace's or (for a brand-locked key) another brand's is not found. */
async function lockListForActor(ctx: Ctx, actor: Actor, listId: string) {
  const [list] = await ctx.db
    .select({ id: lists.id, brandId: lists.brandId, workspaceId: lists.workspaceId })
    .from(lists)
    .where(and(eq(lists.id, listId), inActorWorkspace(actor, lists.workspaceId)))
    .for("update");
  if (!list || !keyReachesBrand(actor, list.brandId)) throw notFound("list_not_found", `No list ${listId}.`);
  return list;
}

/** Every id must be a contact of the list's workspace, or the call changes nothing; an erased contact's id says so. */
async function assertContactsExist(ctx: Ctx, workspaceId: string, contactIds: string[]) {
  const found = await ctx.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), inArray(contacts.id, contactIds)));
  const known = new Set(found.map((c) => c.id));
  const index = contactIds.findIndex((id) => !known.has(id));
  if (index < 0) return;
  const param = `contact_ids.${index}`;
  if (await isErasedContact(ctx, workspaceId, contactIds[index]!))
    throw contactErased(param, `Contact ${contactIds[index]} was erased at the person's request.`);
  throw notFound("contact_not_found", `No contact ${contactIds[index]}.`, param);
}

async function memberCount(ctx: Ctx, listId: string): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(listMembers).where(eq(listMembers.listId, listId));
  return row?.n ?? 0;
}

/** Idempotent: contacts already on the list count under `alreadyMembers` and do not fail the call. */
export async function addListMembers(ctx: Ctx, actor: Actor, listId: string, contactIds: string[]) {
  const ids = [...new Set(contactIds)];
  return withTransaction(ctx, async (tx) => {
    // The list's workspace, not the actor's: a system actor reaching across workspaces has none.
    const { workspaceId } = await lockListForActor(tx, actor, listId);
    await assertContactsExist(tx, workspaceId, ids);
    const inserted = await tx.db
      .insert(listMembers)
      .values(ids.map((contactId) => ({ listId, contactId, workspaceId, addedAt: tx.clock.now() })))
      .onConflictDoNothing()
      .returning({ contactId: listMembers.contactId });
    // Only those new to the list: adding a member again is not a list_added occurrence.
    if (actor.mode === "live")
      await enterListAdded(tx, workspaceId, listId, contactIdsQuery(inserted.map((m) => m.contactId)));
    return {
      added: inserted.length,
      alreadyMembers: ids.length - inserted.length,
      memberCount: await memberCount(tx, listId),
    };
  });
}

/** Removing from a list never unsubscribes anyone: consent lives on topics. */
export async function removeListMembers(ctx: Ctx, actor: Actor, listId: string, contactIds: string[]) {
  const ids = [...new Set(contactIds)];
  return withTransaction(ctx, async (tx) => {
    const { workspaceId } = await lockListForActor(tx, actor, listId);
    await assertContactsExist(tx, workspaceId, ids);
    const removed = await tx.db
      .delete(listMembers)
      .where(and(eq(listMembers.listId, listId), inArray(listMembers.contactId, ids)))
      .returning({ contactId: listMembers.contactId });
    return { removed: removed.length, memberCount: await memberCount(tx, listId) };
  });
}
