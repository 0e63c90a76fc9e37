import "server-only";

import { and, desc, eq, sql, type SQL } from "drizzle-orm";

import { actorLabel, inActorWorkspace, systemActor, userActor, type WorkspaceActor } from "@/lib/actor";
import { enterListAdded } from "@/lib/automations/trigger-matching";
import { withTransaction, type Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { contactBulkActions, lists, topics, type BulkSelection } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { contactBulkActionRequested } from "@/lib/events/workflow-events";
import { newId } from "@/lib/ids";
import { unsubscribeOnBehalfWhere } from "@/lib/subscriptions/unsubscribe-on-behalf";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";
import { parseInput } from "@/lib/validation/parse-input";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import { startBulkActionSchema, type BulkActionKind, type StartBulkActionInput } from "./bulk-action-schemas";
import type { BulkActionView } from "./bulk-action-view";
import { eraseContactsWhere } from "./erase-contacts";
import { filterConditionsSql, type ContactFilters } from "./list-contacts";

export type BulkAction = typeof contactBulkActions.$inferSelect;

/**
 * Contacts per chunk, each chunk one transaction: as many as keep a chunk to several seconds. Each
 * chunk acts with one statement per table whatever its size (an opt-out too: its events, webhook
 * deliveries and notes are written for the whole chunk at once, see unsubscribeOnBehalfWhere), so a
 * chunk's fixed costs (the transaction, the report triggers' recount, and for an erasure one pass over
 * the workspace's sends, which have no index by contact, see eraseContactsWhere) are paid
 * total / size times (npm run bench:bulk).
 */
export const BULK_ACTION_CHUNK: Record<BulkActionKind, number> = {
  add_to_list: 100_000,
  remove_from_list: 100_000,
  unsubscribe: 100_000,
  erase: 100_000,
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

/** The action's selection, as conditions (`and …`) on `contacts`: the same rule as the contacts table's. */
function selectionConditions(action: BulkAction): SQL {
  return "ids" in action.selection
    ? sql`and contacts.id = any(${idArray(action.selection.ids)})`
    : filterConditionsSql(action.workspaceId, action.selection.filters as ContactFilters);
}

/**
 * System: the `contact-bulk-action` workflow's step. Counts the selection on the first step, then
 * acts chunk after chunk of contacts in id order, each chunk committed with its progress (`done`,
 * `after`), until the selection is used up (completed) or the step's time is spent. A chunk is
 * bounded by ids: read first, outside its transaction, as its size and last id only; then its
 * transaction acts on the selection's contacts after the last chunk up to that id, with one
 * statement per table, so no contact's row passes through here. A chunk whose transaction finds
 * the action moved on (another run committed it) does nothing: a retried chunk acts on nobody twice.
 */
export async function runBulkActionChunks(ctx: Ctx, bulkActionId: string): Promise<{ done: boolean }> {
  const started = Date.now();
  const rows = async <T>(query: SQL) => (await ctx.db.execute(query)) as unknown as T[];
  for (;;) {
    const [action] = await ctx.db.select().from(contactBulkActions).where(eq(contactBulkActions.id, bulkActionId));
    if (!action || action.status !== "running") return { done: true };
    if (action.total === null) {
      const [counted] = await rows<{ n: number }>(sql`
        select count(*)::int as n from contacts
        where contacts.workspace_id = ${action.workspaceId} ${selectionConditions(action)}`);
      await ctx.db.update(contactBulkActions).set({ total: counted!.n }).where(eq(contactBulkActions.id, action.id));
    }
    const size = BULK_ACTION_CHUNK[action.kind];
    const after = action.after ? sql`and contacts.id > ${action.after}` : sql``;
    const [bounds] = await rows<{ n: number; last: string | null }>(sql`
      select count(*)::int as n, max(id) as last from (
        select contacts.id from contacts
        where contacts.workspace_id = ${action.workspaceId} ${after} ${selectionConditions(action)}
        order by contacts.id limit ${size}) chunk`);
    const { n, last } = bounds!;
    const final = n < size;
    // The chunk, as conditions on `contacts`: the selection's contacts after the last chunk, up to its last id.
    const chunk = sql`contacts.workspace_id = ${action.workspaceId} ${after}
      and contacts.id <= ${last} ${selectionConditions(action)}`;
    const moved = await withTransaction(ctx, async (tx) => {
      const [held] = await tx.db
        .select({ after: contactBulkActions.after, status: contactBulkActions.status })
        .from(contactBulkActions)
        .where(eq(contactBulkActions.id, action.id))
        .for("update");
      if (held?.status !== "running" || held.after !== action.after) return false;
      // A chunk's foreign-key checks and cascades run once per row, each a statement PostgreSQL keeps
      // prepared: under the pool's force_custom_plan (lib/db/client.ts) every one was planned afresh,
      // 300,000 plans for an add of 100,000 (two thirds of its time, measured in npm run bench:bulk).
      // Their plan is the same for every row, so this transaction lets PostgreSQL keep it.
      await tx.db.execute(sql`set local plan_cache_mode = auto`);
      if (last !== null) await act(tx, action, chunk);
      await tx.db
        .update(contactBulkActions)
        .set({
          done: sql`${contactBulkActions.done} + ${n}`,
          after: last ?? action.after,
          ...(final ? { status: "completed" as const, finishedAt: tx.clock.now() } : {}),
        })
        .where(eq(contactBulkActions.id, action.id));
      return true;
    });
    if (moved && final) return { done: true };
    if (Date.now() - started > STEP_BUDGET_MS) return { done: false };
  }
}

/**
 * The action on one chunk of contacts (`chunk`: conditions on `contacts`), inside the chunk's
 * transaction. Contacts erased since the chunk was read are passed over: a list change locks the
 * contacts it reads (key share, the lock its foreign key takes anyway), so one being erased is
 * waited for and then skipped rather than breaking the key.
 */
async function act(ctx: Ctx, action: BulkAction, chunk: SQL): Promise<void> {
  const now = ctx.clock.now().toISOString();
  switch (action.kind) {
    case "add_to_list":
      // The list is joined, not assumed: a list deleted meanwhile adds no one. Those new to the list
      // enter its list_added automations in the same statement: a chunk of 100,000 is one statement.
      await enterListAdded(
        ctx,
        action.workspaceId,
        action.listId!,
        sql`insert into list_members (list_id, contact_id, workspace_id, created_at)
          select l.id, contacts.id, contacts.workspace_id, ${now}::timestamptz from contacts
          join lists l on l.id = ${action.listId} and l.workspace_id = contacts.workspace_id
          where ${chunk}
          for key share of contacts
          on conflict do nothing
          returning contact_id`,
      );
      return;
    case "remove_from_list":
      await ctx.db.execute(sql`
        delete from list_members where list_id = ${action.listId} and workspace_id = ${action.workspaceId}
          and contact_id in (select contacts.id from contacts where ${chunk})`);
      return;
    case "unsubscribe":
      await unsubscribeOnBehalfWhere(ctx, starter(action), chunk, { topicId: action.topicId, note: action.note! });
      return;
    case "erase":
      await eraseContactsWhere(ctx, starter(action), chunk);
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
