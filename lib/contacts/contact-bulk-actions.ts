import "server-only";

import { and, desc, eq, sql } from "drizzle-orm";

import { actorLabel, inActorWorkspace, systemActor, userActor, type WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { idArray } from "@/lib/db/id-array";
import { contactBulkActions, lists, topics, type BulkSelection } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { contactBulkActionRequested } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";
import { unsubscribeOnBehalf } from "@/lib/subscriptions/unsubscribe-on-behalf";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";
import { parseInput } from "@/lib/validation/parse-input";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import { startBulkActionSchema, type BulkActionKind, type StartBulkActionInput } from "./bulk-action-schemas";
import type { BulkActionView } from "./bulk-action-view";
import { eraseContacts } from "./erase-contacts";
import { filterConditions, type ContactFilters } from "./list-contacts";

export type BulkAction = typeof contactBulkActions.$inferSelect;

/**
 * Contacts per chunk, each chunk one transaction: as many as keep a chunk to a few seconds. An
 * opt-out is one contact at a time (the person's own path, with its events and webhooks). An
 * erasure reads all of the workspace's events and sends once per chunk (neither table has an index
 * by contact, see eraseContacts), so its chunks are as large as the others': at 5,000 those reads
 * were most of its time (npm run bench:bulk: 343 s for 1,000,000 contacts with 650,000 events).
 */
export const BULK_ACTION_CHUNK: Record<BulkActionKind, number> = {
  add_to_list: 20_000,
  remove_from_list: 20_000,
  unsubscribe: 200,
  erase: 20_000,
};

/** A step of the workflow works this long, then hands back, so a run's steps stay short and resumable. */
const STEP_BUDGET_MS = 10_000;

/**
 * A member starts an action on many contacts of the contacts table: those picked one by one, or
 * every contact the table's filters match (counted when the run starts, acted on as they are when
 * their chunk comes). It runs in the background (`contact-bulk-action`); its row says how far it
 * got. The list or topic must be the workspace's; the rules are those of the one-contact actions.
 */
export async function startBulkAction(
  ctx: Ctx,
  actor: WorkspaceActor,
  input: StartBulkActionInput,
): Promise<{ bulkActionId: string }> {
  const values = parseInput(startBulkActionSchema, input);
  return withTransaction(ctx, async (tx) => {
    // Any id named must be the workspace's, whatever the action uses of it: another's is not found.
    if (values.listId) {
      const [list] = await tx.db
        .select({ id: lists.id })
        .from(lists)
        .where(and(eq(lists.id, values.listId), inActorWorkspace(actor, lists.workspaceId)));
      if (!list) throw notFound("list_not_found", `No list ${values.listId}.`, "listId");
    }
    if (values.topicId) {
      const [topic] = await tx.db
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.id, values.topicId), inActorWorkspace(actor, topics.workspaceId)));
      if (!topic) throw notFound("topic_not_found", `No topic ${values.topicId}.`, "topicId");
    }
    const listId = values.kind === "add_to_list" || values.kind === "remove_from_list" ? values.listId! : null;
    // Opting people out and erasing them go on in a read-only workspace; list changes do not.
    if (listId) await checkWorkspaceWritable(tx, actor.workspaceId);
    // The dialog's "everything" is an empty choice.
    const topicId = values.kind === "unsubscribe" ? values.topicId || null : null;
    // Picked contacts must all be the workspace's, as for one contact: another's id is not found.
    if (values.contactIds) {
      const found = (await tx.db.execute(
        sql`select id from contacts where workspace_id = ${actor.workspaceId} and id = any(${idArray(values.contactIds)})`,
      )) as unknown as { id: string }[];
      const known = new Set(found.map((row) => row.id));
      const index = values.contactIds.findIndex((contactId) => !known.has(contactId));
      if (index >= 0)
        throw notFound("contact_not_found", `No contact ${values.contactIds[index]}.`, `contactIds.${index}`);
    }
    const filters = values.filters ?? {};
    // The filters' topic and list too: the table's own, or not found.
    if (filters.topic) await getTopicForActorOrThrow(tx, actor, filters.topic, "filters.topic");
    if (filters.list) {
      const [list] = await tx.db
        .select({ id: lists.id })
        .from(lists)
        .where(and(eq(lists.id, filters.list), inActorWorkspace(actor, lists.workspaceId)));
      if (!list) throw notFound("list_not_found", `No list ${filters.list}.`, "filters.list");
    }
    const selection: BulkSelection = values.contactIds
      ? { ids: [...new Set(values.contactIds)].sort() }
      : { filters: { status: filters.status, topicId: filters.topic, listId: filters.list, search: filters.q } };
    const id = newId("cba");
    await tx.db.insert(contactBulkActions).values({
      id,
      workspaceId: actor.workspaceId,
      kind: values.kind,
      selection,
      listId,
      topicId,
      note: values.kind === "unsubscribe" ? values.note! : null,
      madeBy: actorLabel(actor),
      createdAt: tx.clock.now(),
    });
    await emitEvents(tx, [{ name: contactBulkActionRequested.name, id: `bulk-${id}`, data: { bulkActionId: id } }]);
    return { bulkActionId: id };
  });
}

export const bulkActionView = ({ id, kind, status, total, done, error }: BulkAction): BulkActionView => ({
  id,
  kind,
  status,
  total,
  done,
  error,
});

/** One bulk action of the actor's workspace, for its progress. */
export async function getBulkActionOrThrow(ctx: Ctx, actor: WorkspaceActor, bulkActionId: string): Promise<BulkAction> {
  const [row] = await ctx.db
    .select()
    .from(contactBulkActions)
    .where(and(eq(contactBulkActions.id, bulkActionId), inActorWorkspace(actor, contactBulkActions.workspaceId)));
  if (!row) throw notFound("bulk_action_not_found", `No bulk action ${bulkActionId}.`);
  return row;
}

/** The workspace's latest bulk actions, newest first: the contacts screen shows those running and just ended. */
export async function listRecentBulkActions(ctx: Ctx, actor: WorkspaceActor, limit = 5): Promise<BulkAction[]> {
  return ctx.db
    .select()
    .from(contactBulkActions)
    .where(eq(contactBulkActions.workspaceId, actor.workspaceId))
    .orderBy(desc(contactBulkActions.id))
    .limit(limit);
}

/** The member (or operator) who started it, as the actor the one-contact verbs are called with. */
function starter(action: BulkAction): WorkspaceActor {
  return action.madeBy.startsWith("user:")
    ? userActor(action.madeBy.slice("user:".length), action.workspaceId)
    : systemActor(action.madeBy.replace(/^system:/, ""), action.workspaceId);
}

function selectionConditions(ctx: Ctx, action: BulkAction) {
  const raw = rawClient(ctx.db);
  return "ids" in action.selection
    ? raw`and contacts.id = any(string_to_array(${action.selection.ids.join(",")}, ','))`
    : filterConditions(ctx, action.workspaceId, action.selection.filters as ContactFilters);
}

/**
 * System: the `contact-bulk-action` workflow's step. Counts the selection on the first step, then
 * acts chunk after chunk of contacts in id order, each chunk committed with its progress (`done`,
 * `after`), until the selection is used up (completed) or the step's time is spent.
 */
export async function runBulkActionChunks(ctx: Ctx, bulkActionId: string): Promise<{ done: boolean }> {
  const started = Date.now();
  const raw = rawClient(ctx.db);
  for (;;) {
    const [action] = await ctx.db.select().from(contactBulkActions).where(eq(contactBulkActions.id, bulkActionId));
    if (!action || action.status !== "running") return { done: true };
    if (action.total === null) {
      const [{ n }] = (await raw`
        select count(*)::int as n from contacts
        where contacts.workspace_id = ${action.workspaceId} ${selectionConditions(ctx, action)}`) as unknown as [
        { n: number },
      ];
      await ctx.db.update(contactBulkActions).set({ total: n }).where(eq(contactBulkActions.id, action.id));
    }
    // The chunk is read outside the transaction (the filters are the contacts table's, on the raw client);
    // the transaction then locks the action, checks no other run moved it meanwhile, and acts.
    const size = BULK_ACTION_CHUNK[action.kind];
    const chunk = (await raw`
      select contacts.id from contacts
      where contacts.workspace_id = ${action.workspaceId}
        ${action.after ? raw`and contacts.id > ${action.after}` : raw``}
        ${selectionConditions(ctx, action)}
      order by contacts.id limit ${size}`) as unknown as { id: string }[];
    const ids = chunk.map((row) => row.id);
    const last = ids.length < size;
    const moved = await withTransaction(ctx, async (tx) => {
      const [held] = await tx.db
        .select({ after: contactBulkActions.after, status: contactBulkActions.status })
        .from(contactBulkActions)
        .where(eq(contactBulkActions.id, action.id))
        .for("update");
      if (held?.status !== "running" || held.after !== action.after) return false;
      // Contacts erased since the chunk was read are passed over.
      const present = (await tx.db.execute(
        sql`select id from contacts where id = any(${idArray(ids)}) and workspace_id = ${action.workspaceId} order by id for update`,
      )) as unknown as { id: string }[];
      if (present.length > 0)
        await act(
          tx,
          action,
          present.map((row) => row.id),
        );
      await tx.db
        .update(contactBulkActions)
        .set({
          done: sql`${contactBulkActions.done} + ${ids.length}`,
          after: ids.at(-1) ?? action.after,
          ...(last ? { status: "completed" as const, finishedAt: tx.clock.now() } : {}),
        })
        .where(eq(contactBulkActions.id, action.id));
      return true;
    });
    if (moved && last) return { done: true };
    if (Date.now() - started > STEP_BUDGET_MS) return { done: false };
  }
}

/** The action on one chunk of contacts, inside the chunk's transaction. */
async function act(ctx: Ctx, action: BulkAction, ids: string[]): Promise<void> {
  const now = ctx.clock.now().toISOString();
  switch (action.kind) {
    case "add_to_list":
      // The list is joined, not assumed: a list deleted meanwhile adds no one.
      await ctx.db.execute(sql`
        insert into list_members (list_id, contact_id, workspace_id, created_at)
        select l.id, c.id, c.workspace_id, ${now}::timestamptz from contacts c
        join lists l on l.id = ${action.listId} and l.workspace_id = c.workspace_id
        where c.id = any(${idArray(ids)}) and c.workspace_id = ${action.workspaceId}
        on conflict do nothing`);
      return;
    case "remove_from_list":
      await ctx.db.execute(sql`
        delete from list_members where list_id = ${action.listId} and workspace_id = ${action.workspaceId}
          and contact_id = any(${idArray(ids)})`);
      return;
    case "unsubscribe":
      for (const contactId of ids)
        await unsubscribeOnBehalf(ctx, starter(action), { contactId, topicId: action.topicId, note: action.note! });
      return;
    case "erase":
      await eraseContacts(ctx, starter(action), ids);
      return;
  }
}

/** System: a run that gave up marks its action failed, so the screen stops showing it as running. */
export async function failBulkAction(ctx: Ctx, bulkActionId: string, error: string): Promise<void> {
  await ctx.db
    .update(contactBulkActions)
    .set({ status: "failed", error: error.slice(0, 500), finishedAt: ctx.clock.now() })
    .where(and(eq(contactBulkActions.id, bulkActionId), eq(contactBulkActions.status, "running")));
}
