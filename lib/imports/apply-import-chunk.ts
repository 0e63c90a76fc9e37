import "server-only";

import { and, eq, inArray, isNull, sql } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { imports, lists, topics, users, type ImportCounts, type ImportRefusal } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { recordEvents } from "@/lib/events/record-event";
import { newId } from "@/lib/ids";

import { appliedRowsOf, isApplied, pendingChunks, withChunk, type AppliedRows, type RowChunk } from "./applied-rows";
import { addCounts, emptyCounts, planImportChunk, type ChunkPlan } from "./plan-import-chunk";

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
  const scope = { id: imp.id, workspaceId: imp.workspaceId, options: imp.options! };
  const now = tx.clock.now();

  // Concurrent API writes to these addresses wait for this chunk rather than interleave with it.
  await tx.db.execute(sql`
    select id from contacts
    where workspace_id = ${imp.workspaceId}
      and email in (select email from import_rows where import_id = ${imp.id} and row_number > ${from} and row_number <= ${to} and refusal is null)
    order by id for update`);
  const plan = await planImportChunk(tx, scope, from, to);
  await writeRefusals(tx, imp.id, plan.refusals);
  if (!(await createContacts(tx, imp, plan, from, to, now))) {
    // One of these addresses was added since the plan was read: by the same chunk applied by another
    // run (then leave it to that run), or by someone else (then roll the chunk back and plan it again).
    const [latest] = await tx.db.select().from(imports).where(eq(imports.id, imp.id));
    if (isApplied(appliedRows(latest!), chunk)) throw new ChunkAppliedElsewhere();
    throw new Error("contacts were created concurrently with an import chunk; retrying the chunk");
  }
  await updateContacts(tx, plan, now);
  await subscribe(tx, imp, plan, now);
  await addToList(tx, imp.workspaceId, imp.options!.listId, plan, now);

  const counts = { ...plan.counts, refused: await countRefusals(tx, imp.id, from, to) };
  counts.rows =
    counts.created +
    counts.updated +
    counts.unchanged +
    Object.values(counts.refused).reduce((a, b) => a + (b ?? 0), 0);
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
const SIDE_BY_SIDE = 2;

/**
 * Applies chunks, SIDE_BY_SIDE at a time, each committed with its progress
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
  const ended = await Promise.allSettled(Array.from({ length: SIDE_BY_SIDE }, apply));
  const errors = ended.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
  if (errors.length > 1) throw new AggregateError(errors, "import chunks failed side by side");
  if (errors.length === 1) throw errors[0];
  return outcome;
}

/** New contacts straight from their rows (the values never travel here and back); false when one of the addresses has a contact already. */
async function createContacts(
  ctx: Ctx,
  imp: { id: string; workspaceId: string },
  plan: ChunkPlan,
  from: number,
  to: number,
  now: Date,
): Promise<boolean> {
  if (plan.creates.length === 0) return true;
  const created = (await ctx.db.execute(sql`
    insert into contacts (id, workspace_id, email, first_name, last_name, time_zone, attributes, created_at, updated_at)
    select x.id, ${imp.workspaceId}, r.email, r.first_name, r.last_name, r.time_zone, r.attributes, ${at(now)}, ${at(now)}
    from unnest(${idArray(plan.creates.map((c) => c.id))}, ${idArray(plan.creates.map((c) => c.rowNumber))}::int[]) as x(id, row_number)
    -- The chunk's range as well as each row number: the planner cannot see that the list lies in it,
    -- and without it read the whole import for every chunk (measured: the apply 33 % slower).
    join import_rows r on r.import_id = ${imp.id} and r.row_number = x.row_number and r.row_number > ${from} and r.row_number <= ${to}
    on conflict (workspace_id, email) do nothing
    returning id`)) as unknown as { id: string }[];
  return created.length === plan.creates.length;
}

async function updateContacts(ctx: Ctx, plan: ChunkPlan, now: Date) {
  if (plan.updates.length === 0) return;
  await ctx.db.execute(sql`
    update contacts c set first_name = x."firstName", last_name = x."lastName", time_zone = x."timeZone", attributes = x.attributes, updated_at = ${at(now)}
    from jsonb_to_recordset(${json(plan.updates)}) as x(id text, "firstName" text, "lastName" text, "timeZone" text, attributes jsonb)
    where c.id = x.id`);
}

/**
 * New and pending subscriptions become subscribed with source `import`, each
 * announced by contact.subscribed, and each keeping its origin: the import,
 * its file, the row and the member who asserted consent, when.
 */
async function subscribe(ctx: Ctx, imp: ImportRow, plan: ChunkPlan, now: Date) {
  if (plan.subscriptions.length === 0) return;
  const { workspaceId } = imp;
  const topicIds = imp.options!.topicIds;
  // A topic archived or deleted since the dry run takes no one.
  const live = await ctx.db
    .select({ id: topics.id, name: topics.name, brandId: topics.brandId })
    .from(topics)
    .where(and(eq(topics.workspaceId, workspaceId), inArray(topics.id, topicIds), isNull(topics.archivedAt)));
  const byId = new Map(live.map((t) => [t.id, t]));
  const wanted = plan.subscriptions.filter((s) => byId.has(s.topicId)).map((s) => ({ ...s, id: newId("sub") }));
  if (wanted.length === 0) return;
  const [member] = imp.consentAssertedBy
    ? await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, imp.consentAssertedBy))
    : [];
  // Every row's origin but its row number; the statement adds that one.
  const origin = {
    kind: "import",
    import_id: imp.id,
    file_name: imp.fileName,
    asserted_by_user_id: imp.consentAssertedBy,
    asserted_by: member?.email ?? null,
    asserted_at: imp.consentAssertedAt?.toISOString() ?? null,
  };
  const changed = (await ctx.db.execute(sql`
    insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, origin, subscribed_at, created_at, updated_at)
    select x.id, ${workspaceId}, x."contactId", x."topicId", 'subscribed', 'import',
      ${json(origin)} || jsonb_build_object('row', x."rowNumber"), ${at(now)}, ${at(now)}, ${at(now)}
    from jsonb_to_recordset(${json(wanted)}) as x(id text, "contactId" text, "topicId" text, "rowNumber" int)
    on conflict (contact_id, topic_id) do update
      set state = 'subscribed', source = 'import', origin = excluded.origin, subscribed_at = excluded.subscribed_at, updated_at = excluded.updated_at
      where subscriptions.state = 'pending'
    returning contact_id, topic_id`)) as unknown as { contact_id: string; topic_id: string }[];
  const emails = new Map(plan.contacts.map((c) => [c.id, c.email]));
  await recordEvents(
    ctx,
    systemActor("import", workspaceId),
    "contact.subscribed",
    changed.map((s) => {
      const topic = byId.get(s.topic_id)!;
      return {
        data: {
          contact_id: s.contact_id,
          email: emails.get(s.contact_id),
          topic_id: topic.id,
          topic_name: topic.name,
          brand_id: topic.brandId,
          source: "import",
          occurred_at: now.toISOString(),
        },
        occurredAt: now,
      };
    }),
  );
}

async function addToList(ctx: Ctx, workspaceId: string, listId: string | null, plan: ChunkPlan, now: Date) {
  if (!listId || plan.contacts.length === 0) return;
  const [list] = await ctx.db
    .select({ id: lists.id })
    .from(lists)
    .where(and(eq(lists.id, listId), eq(lists.workspaceId, workspaceId)));
  if (!list) return; // deleted since the dry run
  await ctx.db.execute(sql`
    insert into list_members (list_id, contact_id, workspace_id, created_at)
    select ${listId}, x.id, ${workspaceId}, ${at(now)} from jsonb_to_recordset(${json(plan.contacts)}) as x(id text)
    on conflict do nothing`);
}
