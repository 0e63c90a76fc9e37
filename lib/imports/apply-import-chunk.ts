import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { contactIdsQuery } from "@/lib/automations/enter-by-trigger";
import { enterListAdded } from "@/lib/automations/trigger-matching";
import { withTransaction, type Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { imports, lists, users, type ImportCounts, type ImportRefusal } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { bulkUlidPrefix } from "@/lib/ids";
import { endpointsWanting } from "@/lib/webhooks/queue-deliveries";
import { askForRuns } from "@/lib/webhooks/request-delivery";

import { appliedRowsOf, isApplied, pendingChunks, withChunk, type AppliedRows, type RowChunk } from "./applied-rows";
import {
  addCounts,
  emptyCounts,
  mergeRow,
  REFUSAL_DETAILS,
  stagedRowsSql,
  type ChunkPlan,
  type StagedRow,
} from "./plan-import-chunk";

/** Rows per chunk: one transaction each, and the most a crash can make the apply do again. */
export const importChunkRows = () => env().IMPORT_CHUNK_ROWS;

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Marks rows the plan refused, with why. */
export async function writeRefusals(ctx: Ctx, importId: string, refusals: ChunkPlan["refusals"]): Promise<void> {
  if (refusals.length === 0) return;
  await ctx.db.execute(sql`
    update import_rows r set refusal = x.refusal, detail = x.detail
    from jsonb_to_recordset(${json(refusals)}) as x("rowNumber" int, refusal text, detail text)
    where r.import_id = ${importId} and r.row_number = x."rowNumber"`);
}

/** Refused rows between two row numbers, by reason. */
export async function countRefusals(
  ctx: Ctx,
  importId: string,
  from: number,
  to: number,
): Promise<ImportCounts["refused"]> {
  const rows = (await ctx.db.execute(sql`
    select refusal, count(*)::int as n from import_rows
    where import_id = ${importId} and row_number > ${from} and row_number <= ${to} and refusal is not null
    group by refusal`)) as unknown as { refusal: ImportRefusal; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.refusal, r.n]));
}

export type ChunkOutcome = { done: false } | { done: true; status: (typeof imports.$inferSelect)["status"] };

type ImportRow = typeof imports.$inferSelect;

const appliedRows = (imp: ImportRow): AppliedRows => appliedRowsOf(imp.appliedThrough, imp.appliedAhead);

/** Advisory locks in two-key form with this first key are import chunks' (the second is a hash of import and chunk). */
const CHUNK_LOCK_CLASS = 0x696d70;

/** The chunks a step may apply, in file order; an import with no rows left still needs one, empty, to complete it. */
function chunksToApply(imp: ImportRow): RowChunk[] {
  const lastRow = imp.rowCount + 1;
  const pending = pendingChunks(appliedRows(imp), lastRow, importChunkRows());
  return pending.length > 0 ? pending : [{ from: lastRow, to: lastRow }];
}

/** Thrown inside a chunk's transaction to roll it back: another run applied the same rows first. */
class ChunkAppliedElsewhere extends Error {}

/**
 * Applies one chunk of an import (by default the first not applied yet) in
 * one transaction, with its progress mark: a crash at any moment leaves the
 * chunk either wholly applied and marked or not at all, so a restarted apply
 * never writes a row twice and never skips one. Chunks of one import may be
 * applied side by side (their addresses are distinct: the dry run refused
 * repeats); the mark is written under the import row's lock, and a chunk some
 * other run marked first is rolled back. Stops (done) once the last row is
 * applied, or when the import is no longer applying (cancelled).
 */
export async function applyNextImportChunk(ctx: Ctx, importId: string, chunk?: RowChunk): Promise<ChunkOutcome> {
  try {
    return await withTransaction(ctx, (tx) => applyChunk(tx, importId, chunk));
  } catch (error) {
    if (error instanceof ChunkAppliedElsewhere) return { done: false };
    throw error;
  }
}

async function applyChunk(tx: Ctx, importId: string, wanted: RowChunk | undefined): Promise<ChunkOutcome> {
  const [imp] = await tx.db.select().from(imports).where(eq(imports.id, importId));
  if (!imp) return { done: true, status: "failed" };
  if (imp.status !== "applying") return { done: true, status: imp.status };
  const chunk = wanted ?? chunksToApply(imp)[0]!;
  if (isApplied(appliedRows(imp), chunk)) return { done: false };
  // Another run applying the same import (the admin CLI beside a worker, or a second executor after
  // a lost lease) has this chunk in hand: leave it and take the next, rather than repeat its work.
  const [{ taken }] = (await tx.db.execute(
    sql`select pg_try_advisory_xact_lock(${CHUNK_LOCK_CLASS}::int, hashtext(${`${imp.id}:${chunk.from}`})) as taken`,
  )) as unknown as [{ taken: boolean }];
  if (!taken) return { done: false };
  const { from, to } = chunk;
  const now = tx.clock.now();

  const written = await writeChunk(tx, imp, from, to, now);
  if (!written) {
    // One of these addresses was added since the chunk read them: by the same chunk applied by another
    // run (then leave it to that run), or by someone else (then roll the chunk back and apply it again).
    const [latest] = await tx.db.select().from(imports).where(eq(imports.id, imp.id));
    if (isApplied(appliedRows(latest!), chunk)) throw new ChunkAppliedElsewhere();
    throw new Error("contacts were created concurrently with an import chunk; retrying the chunk");
  }
  const counts = emptyCounts();
  counts.created = written.created;
  counts.subscribed = written.subscribed;
  const scope = { id: imp.id, workspaceId: imp.workspaceId, options: imp.options! };
  const updates: ChunkPlan["updates"] = [];
  for (const row of written.existing) mergeRow(scope, row, updates, counts);
  await updateContacts(tx, updates, now);
  // Only when the import's sender ticked it: an import is usually a migration of people already
  // mailed elsewhere, whom a list's welcome series should not greet again.
  if (imp.options!.startAutomations && written.listId && written.listed.length > 0)
    await enterListAdded(tx, imp.workspaceId, written.listId, contactIdsQuery(written.listed));
  counts.refused = await countRefusals(tx, imp.id, from, to);
  counts.rows =
    counts.created +
    counts.updated +
    counts.unchanged +
    Object.values(counts.refused).reduce((a, b) => a + (b ?? 0), 0);
  if (written.created > 0) {
    // The chunk's new contacts counted in at once, by the rule the insert trigger counts by (reports.sql).
    const added = { workspace_id: imp.workspaceId, created_at: now.toISOString(), added: written.created };
    await tx.db.execute(
      sql`select report_count_new_contacts(${json([{ ...added, total: written.created, unsubscribed: 0, bounced: 0, complained: 0 }])})`,
    );
  }
  if (written.announced > 0 && written.endpointIds.length > 0) await askForRuns(tx, written.endpointIds);
  // Last, as every other lock chunks share (the workspace's report counters and activity, the webhook
  // runs they ask for) is taken in the same order by each of them: no two chunks wait on each other in a cycle.
  const [marked] = await tx.db.select().from(imports).where(eq(imports.id, imp.id)).for("update");
  if (isApplied(appliedRows(marked!), chunk)) throw new ChunkAppliedElsewhere();
  const applied = withChunk(appliedRows(marked!), chunk);
  // A cancel made while the chunk ran keeps it, as one made between chunks keeps those before.
  const done = marked!.status === "applying" && applied.through >= imp.rowCount + 1;
  await tx.db
    .update(imports)
    .set({
      appliedThrough: applied.through,
      appliedAhead: applied.ahead,
      applied: addCounts(marked!.applied ?? emptyCounts(), counts),
      ...(done ? { status: "completed" as const, finishedAt: now } : {}),
      updatedAt: now,
    })
    .where(eq(imports.id, imp.id));
  return done
    ? { done: true, status: "completed" }
    : marked!.status === "applying"
      ? { done: false }
      : { done: true, status: marked!.status };
}

/**
 * Chunks one workflow step applies at most, and the time after which it stops early (as deliverDue's
 * steps do, shorter: a chunk holds its contacts locked, and a shutdown waits for the step).
 */
const STEP_CHUNKS = 10;
const STEP_BUDGET_MS = 2_000;

/**
 * Chunks applied side by side. Each chunk's statements run in one PostgreSQL
 * backend, which an apply one chunk at a time keeps busy while the other core
 * idles (Node was idle 84 % of an apply). Measured with `npm run bench:import
 * -- --rows 200000` on two cores: 19.3 s one at a time, 13.0 s two at a
 * time, 15.5 s three at a time.
 */
export const IMPORT_CHUNKS_SIDE_BY_SIDE = 2;

/**
 * Applies chunks, IMPORT_CHUNKS_SIDE_BY_SIDE at a time, each committed with its progress
 * mark as applyNextImportChunk does, until the import is done or STEP_CHUNKS
 * are applied or STEP_BUDGET_MS have passed. A workflow step replays every
 * step before it (about 0.2 ms each, measured), and one step per chunk made a
 * million-row import 70.8 s instead of 62.0 s; a step this short still lets a
 * shutdown finish it soon, and a step retried after a crash goes on from the
 * committed chunks. Every chunk has ended, committed or rolled back, when it
 * returns or throws: none outlives its step.
 */
export async function applyImportChunks(ctx: Ctx, importId: string): Promise<ChunkOutcome> {
  const [imp] = await ctx.db.select().from(imports).where(eq(imports.id, importId));
  if (!imp) return { done: true, status: "failed" };
  if (imp.status !== "applying") return { done: true, status: imp.status };
  const queue = chunksToApply(imp).slice(0, STEP_CHUNKS);
  const started = performance.now();
  let outcome: ChunkOutcome = { done: false };
  let failed = false;
  const apply = async () => {
    try {
      while (!outcome.done && !failed && performance.now() - started <= STEP_BUDGET_MS) {
        const chunk = queue.shift();
        if (!chunk) return;
        const result = await applyNextImportChunk(ctx, importId, chunk);
        if (result.done) outcome = result;
      }
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  const ended = await Promise.allSettled(Array.from({ length: IMPORT_CHUNKS_SIDE_BY_SIDE }, apply));
  const errors = ended.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
  if (errors.length > 1) throw new AggregateError(errors, "import chunks failed side by side");
  if (errors.length === 1) throw errors[0];
  return outcome;
}

/** What a chunk's statement wrote; null when one of its new addresses had a contact by the time it was written. */
interface WrittenChunk {
  created: number;
  subscribed: number;
  /** contact.subscribed events recorded. */
  announced: number;
  /** Endpoints that want them, with their wake locks held. */
  endpointIds: string[];
  /** The chunk's rows of contacts that exist, not refused: for the merge, which is the only thing left to do. */
  existing: (StagedRow & { contact_id: string })[];
  /** The import's list, if it still exists, and the contacts this chunk added to it (not those already on it). */
  listId: string | null;
  listed: string[];
}

/**
 * Writes the chunk in one statement, set-wise from its staged rows, none of
 * them through here but the rows of contacts that exist (their merge is
 * lib/contacts' rule): it reads each row's contact (locking it) and refuses
 * what is refused now; creates the new contacts, with ids made in the
 * statement; subscribes every kept contact to the import's live topics
 * (new, or pending made subscribed; never an unsubscribed one: refused) with
 * the import as the origin, announcing each with contact.subscribed and its
 * deliveries; and adds them to the list, if it still exists.
 *
 * The report triggers of contacts and subscriptions are skipped for this
 * statement (mail.counted_by_import; measured, the subscriptions' one alone
 * cost 40 µs a row). It writes the new contacts' status rows itself, and the
 * chunk counts them once, at its end, through report_count_new_contacts, as
 * the contacts' trigger counts. Their status is `subscribed` by the one rule
 * (derived_contact_statuses): a new contact has not opted out, its address
 * is not suppressed (refused here, address or domain), and its only
 * subscriptions are the import's, each subscribed. The existing contacts
 * whose subscriptions changed are recounted after the statement by
 * report_refresh_contacts, as the subscriptions' trigger recounts them.
 *
 * No statement joins two of its CTEs' rows with each other: the planner
 * cannot know how many rows a CTE holds, took each for one, and scanned one
 * CTE's rows once per row of the other (measured: 8 s for a 5,000-row chunk).
 */
async function writeChunk(ctx: Ctx, imp: ImportRow, from: number, to: number, now: Date): Promise<WrittenChunk | null> {
  const { workspaceId } = imp;
  const options = imp.options!;
  const scope = { id: imp.id, workspaceId, options };
  const [list] = options.listId
    ? await ctx.db
        .select({ id: lists.id })
        .from(lists)
        .where(and(eq(lists.id, options.listId), eq(lists.workspaceId, workspaceId)))
    : [];
  const endpointIds =
    options.topicIds.length > 0
      ? (await endpointsWanting(ctx, workspaceId, "contact.subscribed")).map((endpoint) => endpoint.id)
      : [];
  const [member] = imp.consentAssertedBy
    ? await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, imp.consentAssertedBy))
    : [];
  // Every subscription's origin but its row number; the statement adds that one.
  const origin = {
    kind: "import",
    import_id: imp.id,
    file_name: imp.fileName,
    asserted_by_user_id: imp.consentAssertedBy,
    asserted_by: member?.email ?? null,
    asserted_at: imp.consentAssertedAt?.toISOString() ?? null,
  };
  const time = at(now);
  // Ids end with the row number (8 hex digits), and a topic's place in the import's list (4).
  const rowHex = sql`lpad(to_hex(k.row_number), 8, '0')`;
  const topicHex = sql`lpad(to_hex(l.ord), 4, '0')`;
  await ctx.db.execute(sql`select set_config('mail.counted_by_import', 'on', true)`);
  const q = sql`
    with staged as materialized (${stagedRowsSql(scope, from, to, true)}),
    -- Each refused row found by its key: joined with the range of the chunk instead, the planner (which
    -- cannot know how many rows a CTE holds) scanned the staged rows once per row.
    refused as (
      update import_rows r set refusal = s.refusal,
        detail = case s.refusal when 'suppressed' then ${REFUSAL_DETAILS.suppressed} when 'unsubscribed' then ${REFUSAL_DETAILS.unsubscribed} else ${REFUSAL_DETAILS.erased} end
      from staged s
      where s.refusal is not null and r.import_id = ${imp.id} and r.row_number = s.row_number),
    fresh as (
      select ${bulkUlidPrefix("ct", 8)} || lpad(to_hex(s.row_number), 8, '0') as id, s.row_number, s.email, s.first_name, s.last_name, s.time_zone, s.attributes
      from staged s where s.contact_id is null and s.refusal is null),
    created as (
      insert into contacts (id, workspace_id, email, first_name, last_name, time_zone, attributes, created_at, updated_at)
      select f.id, ${workspaceId}, f.email, f.first_name, f.last_name, f.time_zone, f.attributes, ${time}, ${time} from fresh f
      on conflict (workspace_id, email) do nothing
      returning id),
    statuses as (
      insert into report_contact_statuses (contact_id, workspace_id, status) select id, ${workspaceId}, 'subscribed' from created),
    known as (select contact_id, row_number, email from staged where contact_id is not null and refusal is null),
    -- A topic archived or deleted since the dry run takes no one.
    live as (
      select t.id, t.name, t.brand_id, x.ord from unnest(${idArray(options.topicIds)}) with ordinality as x(id, ord)
      join topics t on t.id = x.id and t.workspace_id = ${workspaceId} and t.archived_at is null),
    -- A new contact's subscriptions are all new; an existing contact's are new, or pending ones made
    -- subscribed (an unsubscribed one was refused), and the others are left as they are.
    subscribed_new as (
      insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, origin, subscribed_at, created_at, updated_at)
      select ${bulkUlidPrefix("sub", 12)} || ${rowHex} || ${topicHex}, ${workspaceId}, k.id, l.id, 'subscribed', 'import',
        ${json(origin)} || jsonb_build_object('row', k.row_number), ${time}, ${time}, ${time}
      from fresh k cross join live l
      returning 1),
    subscribed_known as (
      insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, origin, subscribed_at, created_at, updated_at)
      select ${bulkUlidPrefix("sub", 12)} || ${rowHex} || ${topicHex}, ${workspaceId}, k.contact_id, l.id, 'subscribed', 'import',
        ${json(origin)} || jsonb_build_object('row', k.row_number), ${time}, ${time}, ${time}
      from known k cross join live l
      on conflict (contact_id, topic_id) do update
        set state = 'subscribed', source = 'import', origin = excluded.origin, subscribed_at = excluded.subscribed_at, updated_at = excluded.updated_at
        where subscriptions.state = 'pending'
      returning contact_id, topic_id, (origin->>'row')::int as row_number),
    -- Each announced with its row's address, found by the row's key (not a join of two CTEs: see refused).
    changed as (
      select f.id as contact_id, f.row_number, f.email, l.id as topic_id, l.name as topic_name, l.brand_id, l.ord from fresh f cross join live l
      union all
      select s.contact_id, s.row_number, r.email, l.id, l.name, l.brand_id, l.ord
      from subscribed_known s join import_rows r on r.import_id = ${imp.id} and r.row_number = s.row_number join live l on l.id = s.topic_id),
    announced as (
      insert into events (id, workspace_id, type, data, occurred_at, created_at)
      select ${bulkUlidPrefix("evt", 12)} || ${rowHex} || lpad(to_hex(k.ord), 4, '0'), ${workspaceId}, 'contact.subscribed',
        jsonb_build_object('contact_id', k.contact_id, 'email', k.email, 'topic_id', k.topic_id, 'topic_name', k.topic_name,
          'brand_id', k.brand_id, 'source', 'import', 'occurred_at', ${now.toISOString()}::text),
        ${time}, ${time}
      from changed k
      returning id, data->>'contact_id' as contact_id),
    -- A delivery per event and endpoint, as queueDeliveries makes them; its id is the event's, with the endpoint's place.
    queued as (
      insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, order_key, next_attempt_at, created_at)
      select 'whd_' || substr(a.id, 5) || lpad(to_hex(e.ord), 4, '0'), ${workspaceId}, e.id, a.id, e.id || ':' || a.contact_id, ${time}, ${time}
      from announced a cross join unnest(${idArray(endpointIds)}) with ordinality as e(id, ord)),
    members as (
      insert into list_members (list_id, contact_id, workspace_id, created_at)
      select ${list?.id ?? null}::text, k.contact_id, ${workspaceId}, ${time}
      from (select id as contact_id from fresh union all select contact_id from known) k where ${list?.id ?? null}::text is not null
      on conflict do nothing
      returning contact_id)
    select (select count(*) from fresh)::int as fresh, (select count(*) from created)::int as created,
      (select count(*) from subscribed_new)::int + (select count(*) from subscribed_known)::int as subscribed,
      (select count(*) from announced)::int as announced,
      (select coalesce(array_agg(distinct contact_id), '{}') from subscribed_known) as resubscribed,
      (select coalesce(array_agg(contact_id), '{}') from members) as listed,
      (select coalesce(json_agg(s), '[]') from staged s where s.contact_id is not null and s.refusal is null) as existing`;
  const [result] = (await ctx.db.execute(q)) as unknown as [
    {
      fresh: number;
      created: number;
      subscribed: number;
      announced: number;
      resubscribed: string[];
      listed: string[];
      existing: (StagedRow & { contact_id: string })[];
    },
  ];
  // The existing contacts whose subscriptions changed, recounted by the rule the subscriptions' trigger follows.
  await ctx.db.execute(
    sql`select set_config('mail.counted_by_import', 'off', true), report_refresh_contacts(${idArray(result.resubscribed)})`,
  );
  if (result.created !== result.fresh) return null;
  return {
    created: result.created,
    subscribed: result.subscribed,
    announced: result.announced,
    endpointIds,
    existing: result.existing,
    listId: list?.id ?? null,
    listed: result.listed,
  };
}

async function updateContacts(ctx: Ctx, updates: ChunkPlan["updates"], now: Date) {
  if (updates.length === 0) return;
  await ctx.db.execute(sql`
    update contacts c set first_name = x."firstName", last_name = x."lastName", time_zone = x."timeZone", attributes = x.attributes, updated_at = ${at(now)}
    from jsonb_to_recordset(${json(updates)}) as x(id text, "firstName" text, "lastName" text, "timeZone" text, attributes jsonb)
    where c.id = x.id`);
}
