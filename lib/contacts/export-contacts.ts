import "server-only";

import { StringDecoder } from "node:string_decoder";
import { stringify } from "csv-stringify/sync";
import { asc, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP, rawClient } from "@/lib/db/client";
import { endCopyOut } from "@/lib/db/copy-out";
import { attributeDefinitions, SUBSCRIPTION_STATES, topics } from "@/lib/db/schema";
import { Spool } from "@/lib/runtime/spool";
import { takeTransferSlot } from "@/lib/runtime/transfer-slots";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";
import { checkWorkspaceReadable } from "@/lib/workspaces/check-workspace-writable";

import { CONTACT_STATUS_SQL } from "./contact-status";
import { prefixPattern, type ContactFilters } from "./list-contacts";

/** The table's filters, and in the dashboard the contacts ticked on its page (within the filters too). */
export type ExportFilters = ContactFilters & { contactIds?: string[] };

/** Per topic, the subscription and its consent evidence. */
const CONSENT_COLUMNS = [
  "state",
  "source",
  "confirmation_sent_at",
  "confirmed_at",
  "confirmed_ip",
  "subscribed_at",
  "unsubscribed_at",
  // The signup form, API key or import row it came from, as the access-request JSON has it.
  "origin",
] as const;

/** Large enough that a yield costs nothing beside the bytes, small enough to keep memory flat. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The workspace's contacts (those the filters select) as CSV, streamed,
 * oldest first: every field, each attribute, the status and, per topic, the
 * subscription with its evidence (sent, confirmed, IP, source). Works in
 * every billing stage but deleted: a read-only workspace can take its data
 * away. A cell starting with = + - or @ is escaped so that a spreadsheet
 * shows it rather than runs it.
 *
 * PostgreSQL writes the rows itself (COPY … TO STDOUT in CSV): paging the
 * contacts into JavaScript and building each row with csv-stringify cost
 * about seventeen times the bare COPY of the table. The SQL renders every
 * cell as csv-stringify did, byte for byte (see the cell helpers below); the
 * header is still csv-stringify's. `rows` counts the records in a chunk.
 * The COPY goes to a spool file at the database's pace (copyToSpool); the
 * download reads the file at its own. One of the workspace's transfer slots
 * is held until the download ends (`too_many_transfers` past them).
 */
export async function* exportContactsCsv(
  ctx: Ctx,
  actor: WorkspaceActor,
  filters: ExportFilters,
): AsyncGenerator<{ csv: string; rows: number }> {
  await checkWorkspaceReadable(ctx, actor.workspaceId);
  // Before the header: a refused filter must fail the download before its first byte, where it can still be a 404.
  if (filters.topicId) await getTopicForActorOrThrow(ctx, actor, filters.topicId);
  const attributes = (
    await ctx.db
      .select({ key: attributeDefinitions.key })
      .from(attributeDefinitions)
      .where(eq(attributeDefinitions.workspaceId, actor.workspaceId))
      .orderBy(asc(attributeDefinitions.key))
  ).map((a) => a.key);
  const allTopics = await ctx.db
    .select({ id: topics.id, name: topics.name })
    .from(topics)
    .where(eq(topics.workspaceId, actor.workspaceId))
    .orderBy(asc(topics.id));
  const header = stringify(
    [
      [
        "id",
        "email",
        "first_name",
        "last_name",
        "status",
        "created_at",
        ...attributes.map((key) => `attributes.${key}`),
        ...allTopics.flatMap((topic) => CONSENT_COLUMNS.map((column) => `topic:${topic.name}:${column}`)),
      ],
    ],
    { escape_formulas: true },
  );
  const release = takeTransferSlot(actor.workspaceId);
  // The COPY is read at the database's pace into a spool file, which the download then reads at the client's: a
  // slow or stalled client holds a file, never a pooled connection. Started before the header too, so that a
  // query PostgreSQL refuses also fails before the first byte.
  const spool = await Spool.open().catch((error: unknown) => {
    release();
    throw error;
  });
  try {
    await copyToSpool(
      ctx,
      `copy (${exportQuery(actor.workspaceId, filters, attributes, allTopics)}) to stdout with (format csv)`,
      spool,
    );
    yield { csv: header, rows: 0 };
    yield* csvChunks(spool.read());
  } finally {
    await spool.close();
    release();
  }
}

/**
 * Runs the COPY into the spool; resolves once PostgreSQL accepted it (or
 * rejects with its refusal), while the rows go on arriving in the
 * background. A long export is no runaway statement: the COPY lifts the
 * pool's statement timeout for itself.
 */
async function copyToSpool(ctx: Ctx, copy: string, spool: Spool): Promise<void> {
  let started!: () => void;
  const accepted = new Promise<void>((resolve) => (started = resolve));
  const copied = rawClient(ctx.db).begin(async (tx) => {
    await tx`set local statement_timeout = 0`;
    const stream = await tx.unsafe(copy).readable();
    started();
    try {
      // Not destroyed should writing fail (a full disk): the rest is then read and dropped, the connection being free
      // only once the COPY is read to its end. A destroyed stream took no more rows and left the socket paused.
      for await (const data of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>)
        await spool.write(data);
    } finally {
      await endCopyOut(stream);
    }
  });
  copied.then(
    () => spool.finish(),
    (error: unknown) => spool.finish(error),
  );
  await Promise.race([accepted, copied]);
}

/**
 * The COPY's bytes as text, in chunks of about CHUNK_BYTES, with the number
 * of records in each: a line break ends one unless it is inside quotes (a
 * doubled quote toggles twice).
 */
async function* csvChunks(stream: AsyncIterable<Buffer>): AsyncGenerator<{ csv: string; rows: number }> {
  const decoder = new StringDecoder("utf8");
  let quoted = false;
  const records = (bytes: Buffer) => {
    let count = 0;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === NEWLINE && !quoted) count++;
    }
    return count;
  };
  let parts: Buffer[] = [];
  let size = 0;
  for await (const data of stream) {
    parts.push(data);
    size += data.length;
    if (size < CHUNK_BYTES) continue;
    const bytes = Buffer.concat(parts, size);
    parts = [];
    size = 0;
    yield { csv: decoder.write(bytes), rows: records(bytes) };
  }
  const bytes = Buffer.concat(parts, size);
  const csv = decoder.write(bytes) + decoder.end();
  if (csv) yield { csv, rows: records(bytes) };
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;

/** The contacts listContacts selects for these filters, oldest first, one CSV cell per column. */
function exportQuery(
  workspaceId: string,
  filters: ExportFilters,
  attributes: string[],
  allTopics: { id: string }[],
): string {
  const cells = [
    textCell("contacts.id"),
    textCell("contacts.email"),
    textCell("contacts.first_name"),
    textCell("contacts.last_name"),
    textCell("status.status"),
    timestampCell("contacts.created_at"),
    ...attributes.map(attributeCell),
    ...allTopics.flatMap((_, i) => [
      textCell(`s${i}.state`),
      textCell(`s${i}.source`),
      timestampCell(`s${i}.confirmation_sent_at`),
      timestampCell(`s${i}.confirmed_at`),
      textCell(`s${i}.confirmed_ip`),
      timestampCell(`s${i}.subscribed_at`),
      timestampCell(`s${i}.unsubscribed_at`),
      textCell(`s${i}.origin::text`),
    ]),
  ];
  const pattern = filters.search ? literal(prefixPattern(filters.search)) : "";
  const conditions = [
    `workspace_id = ${literal(workspaceId)}`,
    filters.status ? `${CONTACT_STATUS_SQL} = ${literal(filters.status)}` : null,
    filters.topicId
      ? `exists (select 1 from subscriptions s where s.contact_id = contacts.id and s.topic_id = ${literal(filters.topicId)} and s.state = 'subscribed')`
      : null,
    filters.listId
      ? `exists (select 1 from list_members m where m.contact_id = contacts.id and m.list_id = ${literal(filters.listId)} and m.workspace_id = ${literal(workspaceId)})`
      : null,
    filters.search
      ? `(email like ${pattern} or lower(first_name) like ${pattern} or lower(last_name) like ${pattern})`
      : null,
    filters.contactIds ? `id in (${filters.contactIds.map(literal).join(", ")})` : null,
  ].filter((condition) => condition !== null);
  // The contacts sorted on their own first (offset 0 keeps the sub-select whole), then joined in that order, so
  // rows stream out with no sort of finished rows. The status is CONTACT_STATUS_SQL's kept value, joined (as its
  // sub-select, once a row, it cost twice as much). Each topic's subscription (offset 0 again: as a plain join, the
  // planner hashed the subscriptions and sorted every finished row):
  // - of every contact: the topic's subscriptions, in contact order too, merged in; a look-up per contact and topic
  //   took twice as long (the joins alone for 1,000,000 contacts, 3.3 s against 1.7 s);
  // - of the contacts a filter selects: a look-up each, since they may be few of the topic's.
  const filtered = Boolean(filters.status || filters.topicId || filters.listId || filters.search || filters.contactIds);
  const subscriptions = allTopics.map((topic, i) =>
    filtered
      ? `left join lateral (select * from subscriptions s where s.contact_id = contacts.id and s.topic_id = ${literal(topic.id)} offset 0) s${i} on true`
      : `left join ${subscriptionsInContactOrder(topic.id)} s${i} on s${i}.contact_id = contacts.id`,
  );
  return `select ${cells.join(",\n")}
    from (select * from contacts where ${conditions.join(" and ")} order by id offset 0) contacts
    left join report_contact_statuses status on status.contact_id = contacts.id
    ${subscriptions.join("\n")}
    order by contacts.id`;
}

/**
 * A topic's subscriptions ordered by contact: one walk of the (topic, state, contact) index per state, merged
 * (a Merge Append), so only the topic's own entries are read, whatever else the table holds.
 */
function subscriptionsInContactOrder(topicId: string): string {
  const columns = ["contact_id", ...CONSENT_COLUMNS].join(", ");
  const byState = SUBSCRIPTION_STATES.map(
    (state) =>
      `(select ${columns} from subscriptions where topic_id = ${literal(topicId)} and state = ${literal(state)} order by contact_id)`,
  );
  return `(select * from (${byState.join(" union all ")}) by_state order by contact_id offset 0)`;
}

/**
 * COPY takes no parameters, so values go in as literals. An E'' string reads
 * the same whatever standard_conforming_strings says; a NUL, which no
 * PostgreSQL text holds, would cut the query short.
 */
function literal(value: string): string {
  if (value.includes("\0")) throw new Error("PostgreSQL text cannot hold a NUL character");
  return `E'${value.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** The leading characters csv-stringify's escape_formulas prefixes with a quote (a number's minus sign aside), as code points. */
const FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"]
  .map((character) => character.codePointAt(0))
  .join(", ");

/**
 * A text value as csv-stringify wrote it: a formula escaped, and an empty
 * string as NULL, since COPY quotes an empty string where csv-stringify
 * writes nothing. Quoting is the same in both (only a cell holding a comma,
 * a quote or a line break, quotes doubled).
 */
function textCell(value: string): string {
  return `case when ascii(${value}) in (${FORMULA_STARTS}) then '''' || ${value} else nullif(${value}, '') end`;
}

/** As the API prints timestamps (these never start like a formula). */
function timestampCell(column: string): string {
  return `to_char(${column} at time zone 'UTC', ${ISO_TIMESTAMP})`;
}

/**
 * As csv-stringify wrote the parsed JSON: a string as text, true and false
 * as words, null as nothing, a number as JavaScript prints it and never
 * escaped (a minus sign there is no formula).
 */
function attributeCell(key: string): string {
  const json = `contacts.attributes -> ${literal(key)}`;
  const text = `(contacts.attributes ->> ${literal(key)})`;
  return `case jsonb_typeof(${json}) when 'number' then ${numberCell(json, text)} when 'string' then ${textCell(text)} else ${text} end`;
}

/**
 * JavaScript's String(number). An integer of at most 15 characters reads
 * the same in both. Otherwise float8's shortest round-trip digits are
 * JavaScript's (PostgreSQL 12 and later, extra_float_digits left at its
 * default of 1), but float8 writes an exponent outside 1e-4 ≤ |x| < 1e15
 * where JavaScript does outside 1e-6 ≤ |x| < 1e21, and pads it to two digits.
 */
function numberCell(json: string, text: string): string {
  const float = `(${json})::float8::text`;
  const exponent = `split_part(${float}, 'e', 2)::int`;
  return `case when length(${text}) <= 15 and strpos(${text}, '.') = 0 then ${text}
    when strpos(${float}, 'e') = 0 then ${float}
    when ${exponent} between -6 and 20 then (${float})::numeric::text
    else split_part(${float}, 'e', 1) || case when ${exponent} < 0 then 'e-' else 'e+' end || abs(${exponent}) end`;
}
