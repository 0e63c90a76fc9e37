import { stringify } from "csv-stringify/sync";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it, vi } from "vitest";

import { userActor, type WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { ISO_TIMESTAMP, rawClient } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { SUBSCRIPTION_STATES } from "@/lib/db/schema";
import { createList } from "@/lib/lists/create-list";
import { Spool } from "@/lib/runtime/spool";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { CONTACT_STATUSES } from "./contact-status";
import { defineAttribute } from "./define-attribute";
import { exportContactsCsv } from "./export-contacts";
import { listContacts, type ContactFilters } from "./list-contacts";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();

describe("contact export", () => {
  // Found by app/tenant-matrix.test.ts: the header went out first, so the download answered 200 and broke off.
  it("a topic filter of another workspace is refused before the first chunk, where the download can still answer 404", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    const topicOfB = await seedTopic(ctx, b.workspaceId, b.brandId);
    const chunks = exportContactsCsv(ctx, userActor(a.ownerUserId, a.workspaceId), { topicId: topicOfB });
    await expect(chunks.next()).rejects.toMatchObject({ code: "topic_not_found" });
    const own = exportContactsCsv(ctx, userActor(a.ownerUserId, a.workspaceId), {
      topicId: await seedTopic(ctx, a.workspaceId, a.brandId),
    });
    expect((await own.next()).value?.csv).toMatch(/^id,email,/);
  });

  it("a subscription state the export does not walk cannot be stored: the database refuses it", async () => {
    const w = await seedWorkspace(ctx);
    const topicId = await seedTopic(ctx, w.workspaceId, w.brandId);
    const insert = (state: string) =>
      rawClient(
        ctx.db,
      )`insert into subscriptions (id, workspace_id, contact_id, topic_id, state) values (${`sub_${state}_${w.workspaceId}`}, ${w.workspaceId}, ${`ct_${state}`}, ${topicId}, ${state})`;
    await expect(insert("bounced")).rejects.toMatchObject({
      code: "23514",
      constraint_name: "subscriptions_state_known",
    });
    for (const state of SUBSCRIPTION_STATES) await insert(state);
  });

  it("an export of the ticked contacts holds those contacts only, and another workspace's ids select nothing", async () => {
    const a = await seedWorkspace(ctx);
    const b = await seedWorkspace(ctx);
    const actor = userActor(a.ownerUserId, a.workspaceId);
    const add = async (workspaceActor: WorkspaceActor, email: string) =>
      (await upsertContact(ctx, workspaceActor, { email })).contact.id;
    const ann = await add(actor, "ann@example.org");
    await add(actor, "bob@example.org");
    const cy = await add(actor, "cy@example.org");
    const dee = await add(userActor(b.ownerUserId, b.workspaceId), "dee@example.org");
    const csv = async (contactIds: string[]) => {
      let text = "";
      for await (const chunk of exportContactsCsv(ctx, actor, { contactIds })) text += chunk.csv;
      return text
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(",")[1]);
    };
    expect(await csv([cy, ann])).toEqual(["ann@example.org", "cy@example.org"]);
    expect(await csv([dee])).toEqual([]);
  });
});

/** The export as it was first written, kept as its reference: a page of contacts at a time, each row built by csv-stringify. */
async function rowByRow(
  ctx: Ctx,
  actor: WorkspaceActor,
  filters: ContactFilters,
): Promise<{ csv: string; rows: number }> {
  const sql = rawClient(ctx.db);
  const attributes = (
    await sql<
      { key: string }[]
    >`select key from attribute_definitions where workspace_id = ${actor.workspaceId} order by key`
  ).map((a) => a.key);
  const allTopics = await sql<
    { id: string }[]
  >`select id from topics where workspace_id = ${actor.workspaceId} order by id`;
  const columns = [
    "state",
    "source",
    "confirmation_sent_at",
    "confirmed_at",
    "confirmed_ip",
    "subscribed_at",
    "unsubscribed_at",
    "origin",
  ] as const;
  type Held = Record<(typeof columns)[number], string | null> & { contact_id: string; topic_id: string };
  let csv = "";
  let rows = 0;
  let afterId: string | null = null;
  for (;;) {
    const page = await listContacts(ctx, actor, filters, { limit: 999, afterId, sort: "oldest" });
    if (page.length === 0) return { csv, rows };
    const ts = (column: string) => sql.unsafe(`to_char(${column} at time zone 'UTC', ${ISO_TIMESTAMP})`);
    const held = await sql<Held[]>`
      select contact_id, topic_id, state, source, ${ts("confirmation_sent_at")} as confirmation_sent_at, ${ts("confirmed_at")} as confirmed_at,
             confirmed_ip, ${ts("subscribed_at")} as subscribed_at, ${ts("unsubscribed_at")} as unsubscribed_at, origin::text as origin
      from subscriptions where contact_id = any(${page.map((c) => c.id)}::text[])`;
    const byContact = new Map(held.map((s) => [`${s.contact_id} ${s.topic_id}`, s]));
    csv += stringify(
      page.map((contact) => [
        contact.id,
        contact.email,
        contact.firstName ?? "",
        contact.lastName ?? "",
        contact.status,
        contact.createdAt.toISOString(),
        ...attributes.map((key) => contact.attributes[key] ?? ""),
        ...allTopics.flatMap((topic) => {
          const s = byContact.get(`${contact.id} ${topic.id}`);
          return columns.map((column) => (s ? (s[column] ?? "") : ""));
        }),
      ]),
      { cast: { boolean: (value) => String(value) }, escape_formulas: true },
    );
    rows += page.length;
    afterId = page.at(-1)!.id;
  }
}

async function exported(chunks: AsyncGenerator<{ csv: string; rows: number }>) {
  const header = await chunks.next();
  let csv = "";
  let rows = 0;
  let count = 0;
  for await (const chunk of chunks) {
    csv += chunk.csv;
    rows += chunk.rows;
    count++;
  }
  return { header: header.value!.csv, csv, rows, chunks: count };
}

/** Doubles from their bits, the same ones every run: every exponent, every kind of digit string. */
function someDoubles(count: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const doubles: number[] = [];
  while (doubles.length < count) {
    view.setUint32(0, next());
    view.setUint32(4, next());
    const value = view.getFloat64(0);
    if (Number.isFinite(value)) doubles.push(value);
  }
  return doubles;
}

describe("contact export against its row-by-row rendering", () => {
  const TRICKY = [
    "=1+1",
    "+x",
    "-y",
    "@z",
    "\tt",
    "\rr",
    "\uFF1Dx",
    "\uFF0Bx",
    "\uFF0Dx",
    "\uFF20x",
    "a,b",
    'say "hi"',
    "two\nlines",
    "crlf\r\nx",
    "ünïcødé 😀 字",
    "",
    " ",
    "'q",
    "-",
    "=",
    '"',
    ",",
    "\n",
    "plain",
    "\\.",
    "a\\b",
    "50%_off",
    "it's",
  ];
  const NUMBERS = [
    0,
    -5,
    3.5,
    123.456,
    99999999999999.98,
    1e14 + 0.5,
    999999999999999,
    -99999999999999,
    1234567890123456,
    1e21,
    -1e21,
    1e-7,
    1.5e-7,
    -1e-7,
    123456789012345680000,
    0.1 + 0.2,
    -0.000001,
    1e-6,
    1e15,
    1e16,
    1e-5,
    2 ** 53 + 2,
    5e-324,
    Number.MAX_VALUE,
    1e20,
    9.999999999999999e20,
    0.0001,
    0.00001234,
    42,
    -0.5,
  ];

  it("the export is the same CSV as the row-by-row rendering for tricky values, under every filter", async () => {
    const w = await seedWorkspace(ctx);
    const actor = userActor(w.ownerUserId, w.workspaceId);
    const sql = rawClient(ctx.db);
    for (const [key, type] of [
      ["plan", "string"],
      ["seats", "number"],
      ["vip", "boolean"],
      ["born", "date"],
      ["unused", "string"],
    ] as const)
      await defineAttribute(ctx, actor, { key, type });
    // Past the API's rules, as an older row or a hand edit could be: the key is quoted into the query.
    await sql`insert into attribute_definitions (workspace_id, key, type) values (${w.workspaceId}, ${"o'k\\"}, 'string')`;
    const topicIds = [
      await seedTopic(ctx, w.workspaceId, w.brandId),
      await seedTopic(ctx, w.workspaceId, w.brandId),
      await seedTopic(ctx, w.workspaceId, w.brandId),
    ];
    await sql`update topics set archived_at = now() where id = ${topicIds[2]!}`;
    const doubles = [...NUMBERS, ...someDoubles(600)];

    const count = 6000;
    const contacts = Array.from({ length: count }, (_, i) => {
      const t = (k: number) => TRICKY[(i + k) % TRICKY.length]!;
      const attributes: Record<string, unknown> = {};
      if (i % 5 !== 0) attributes.plan = i % 2 ? t(1) : `${"Ω long value, with a comma\n".repeat(i % 7)}${t(2)}`;
      if (i % 4 !== 0) attributes.seats = doubles[i % doubles.length];
      if (i % 3 === 0) attributes.vip = i % 2 === 0;
      if (i % 6 === 1) attributes.born = "1990-02-03";
      if (i % 11 === 0) attributes.plan = null;
      if (i % 13 === 0) attributes.seats = "-5";
      if (i % 17 === 0) attributes["o'k\\"] = t(3);
      return {
        id: `ct_x${String(i).padStart(6, "0")}`,
        email: `${t(0)}${i}@example.com`,
        first_name: i % 3 === 0 ? null : t(4),
        last_name: i % 7 === 0 ? null : `${t(5)}${i % 2 ? "Ärger" : ""}`,
        attributes,
        created_at: new Date(Date.UTC(2025, 0, 1) + i * 1234567).toISOString(),
      };
    });
    await sql`
      insert into contacts (id, workspace_id, email, first_name, last_name, attributes, created_at)
      select x.id, ${w.workspaceId}, x.email, x.first_name, x.last_name, x.attributes, x.created_at
      from jsonb_to_recordset(${JSON.stringify(contacts)}::jsonb) as x(id text, email text, first_name text, last_name text, attributes jsonb, created_at timestamptz)`;
    // Numbers JavaScript would not have written.
    for (const [i, number] of [
      "1.50",
      "3.14159265358979323846264338",
      "1E+2",
      "-0",
      "0.000",
      "100000000000000000000000000000",
      "-0.0000000000123400",
    ].entries()) {
      await sql.unsafe(
        `update contacts set attributes = attributes || '{"seats": ${number}}' where id = 'ct_x${String(i * 7 + 1).padStart(6, "0")}'`,
      );
    }
    await sql`update contacts set opted_out_at = now() where workspace_id = ${w.workspaceId} and id like '%5'`;
    await sql`
      insert into suppressions (id, workspace_id, email, reason)
      select 'su_x' || c.id, c.workspace_id, c.email, (array['complaint', 'bounce', 'manual'])[1 + (substr(c.id, 5)::int / 10) % 3]
      from contacts c where c.workspace_id = ${w.workspaceId} and c.id like '%30'`;
    const states = ["subscribed", "pending", "unsubscribed", "subscribed"];
    const sources = ["import", "api", null, "=x", "dashboard"];
    const ips = ["=cmd|' /C calc'!A0", "", null, "::1", "1.2.3.4", "-1"];
    const stamps = ["2026-01-05T10:00:00.123Z", null, "1999-12-31T23:59:59.999Z", "2026-03-01T00:00:00.000Z"];
    const origins = [
      null,
      { kind: "api_key", key_id: "key_1", key_name: 'Web, "site"\nline' },
      { kind: "signup_form", form_id: "sf_1", form_name: "=Shop footer" },
    ];
    const subscriptionRows = contacts.flatMap((c, i) =>
      [topicIds[0]!, topicIds[2]!]
        .filter((_, k) => (i + k) % (k + 2) === 0)
        .map((topicId, k) => ({
          id: `su_${c.id}_${k}`,
          contact_id: c.id,
          topic_id: topicId,
          state: states[i % states.length],
          source: sources[i % sources.length],
          confirmation_sent_at: stamps[i % 4],
          confirmed_at: stamps[(i + 1) % 4],
          confirmed_ip: ips[i % ips.length],
          subscribed_at: stamps[(i + 2) % 4],
          unsubscribed_at: stamps[(i + 3) % 4],
          origin: origins[i % origins.length],
        })),
    );
    await sql`
      insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source, confirmation_sent_at, confirmed_at, confirmed_ip, subscribed_at, unsubscribed_at, origin)
      select x.id, ${w.workspaceId}, x.contact_id, x.topic_id, x.state, x.source, x.confirmation_sent_at, x.confirmed_at, x.confirmed_ip, x.subscribed_at, x.unsubscribed_at, x.origin
      from jsonb_to_recordset(${JSON.stringify(subscriptionRows)}::jsonb)
        as x(id text, contact_id text, topic_id text, state text, source text, confirmation_sent_at timestamptz, confirmed_at timestamptz, confirmed_ip text, subscribed_at timestamptz, unsubscribed_at timestamptz, origin jsonb)`;
    const { listId } = await createList(ctx, actor, { brandId: w.brandId, name: "Some" });
    await sql`insert into list_members (list_id, contact_id, workspace_id) select ${listId}, id, workspace_id from contacts where workspace_id = ${w.workspaceId} and id like '%3_'`;
    const statuses = await sql<
      { status: string }[]
    >`select distinct status from report_contact_statuses r join contacts c on c.id = r.contact_id where c.workspace_id = ${w.workspaceId}`;
    expect(statuses.map((s) => s.status).sort()).toEqual([...CONTACT_STATUSES].sort());

    const filterSets: ContactFilters[] = [
      {},
      ...CONTACT_STATUSES.map((status) => ({ status })),
      { topicId: topicIds[0] },
      { topicId: topicIds[1] },
      { listId },
      ...["=", "%", "_", "\\", "'", "it'", "50%_", "ü", "two\n", "Ärger", "nobody"].map((search) => ({ search })),
      { status: "subscribed", topicId: topicIds[0], listId, search: "p" },
    ];
    for (const filters of filterSets) {
      const copy = await exported(exportContactsCsv(ctx, actor, filters));
      const reference = await rowByRow(ctx, actor, filters);
      expect(copy.csv, JSON.stringify(filters)).toBe(reference.csv);
      expect(copy.rows, JSON.stringify(filters)).toBe(reference.rows);
    }
    const all = await exported(exportContactsCsv(ctx, actor, {}));
    expect(all.rows).toBe(count);
    expect(all.chunks).toBeGreaterThan(1);
    expect(all.header).toBe(
      stringify([
        [
          "id",
          "email",
          "first_name",
          "last_name",
          "status",
          "created_at",
          "attributes.born",
          "attributes.o'k\\",
          "attributes.plan",
          "attributes.seats",
          "attributes.unused",
          "attributes.vip",
          ...topicHeader(await topicNames(w.workspaceId)),
        ],
      ]),
    );
  });

  it("an export read to its end or given up half-way gives its connection back", async () => {
    const { w, actor } = await workspaceOfContacts(5000, 200);
    // One connection: an export that left it busy would stall the query after it.
    const { client, solo } = oneConnection();
    const count = async () =>
      (
        await rawClient(solo.db)<
          { n: number }[]
        >`select count(*)::int as n from contacts where workspace_id = ${w.workspaceId}`
      )[0]!.n;
    try {
      for (let i = 0; i < 3; i++) {
        expect((await exported(exportContactsCsv(solo, actor, {}))).rows).toBe(5000);
        expect(await count()).toBe(5000);
        for await (const chunk of exportContactsCsv(solo, actor, {})) if (chunk.rows > 0) break;
        expect(await count()).toBe(5000);
      }
    } finally {
      await client.end();
    }
  });

  it("an export whose spool cannot be written mid-COPY (a full disk) fails with that error and gives its connection back", async () => {
    // Megabytes of rows: far more than a socket's buffers hold once the spool stops taking them.
    const { w, actor } = await workspaceOfContacts(20000, 300);
    const { client, solo } = oneConnection();
    const write = Spool.prototype.write;
    let writes = 0;
    const full = vi.spyOn(Spool.prototype, "write").mockImplementation(function (this: Spool, chunk: Uint8Array) {
      if (++writes === 2) return Promise.reject(new Error("ENOSPC: no space left on device, write"));
      return write.call(this, chunk);
    });
    try {
      await expect(exported(exportContactsCsv(solo, actor, {}))).rejects.toThrow("no space left on device");
      full.mockRestore();
      const [row] = await client<
        { n: number }[]
      >`select count(*)::int as n from contacts where workspace_id = ${w.workspaceId}`;
      expect(row?.n).toBe(20000);
    } finally {
      full.mockRestore();
      await client.end();
    }
  });
});

/** A new workspace with this many contacts, each with a first name this long, and its owner as the actor. */
async function workspaceOfContacts(count: number, nameLength: number) {
  const w = await seedWorkspace(ctx);
  await rawClient(ctx.db)`
    insert into contacts (id, workspace_id, email, first_name)
    select 'ct_' || ${w.workspaceId} || lpad(g::text, 6, '0'), ${w.workspaceId}, 'p' || g || '@example.com', repeat('x', ${nameLength})
    from generate_series(1, ${count}) g`;
  return { w, actor: userActor(w.ownerUserId, w.workspaceId) };
}

/** A context over a pool of one connection, every pool of it: an export that left the connection busy stalls the next query. */
function oneConnection() {
  const client = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const solo: Ctx = {
    ...ctx,
    db: Object.assign(drizzle(client, { schema }), { $counters: client, $cachedPlans: client }),
  };
  return { client, solo };
}

async function topicNames(workspaceId: string) {
  return (
    await rawClient(ctx.db)<{ name: string }[]>`select name from topics where workspace_id = ${workspaceId} order by id`
  ).map((t) => t.name);
}

function topicHeader(names: string[]) {
  return names.flatMap((name) =>
    [
      "state",
      "source",
      "confirmation_sent_at",
      "confirmed_at",
      "confirmed_ip",
      "subscribed_at",
      "unsubscribed_at",
      "origin",
    ].map((column) => `topic:${name}:${column}`),
  );
}
