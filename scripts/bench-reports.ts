// npm run bench:reports — on a fresh database (a new one on the server of DATABASE_URL when set,
// else an embedded one under .data/):
//  1. seeds one workspace with 1,000,000 contacts, 200 sent campaigns and 10,000,000 engagement
//     events (deliveries, opens, clicks on 5,000,000 sends) in SQL, then builds its report figures
//     with report_rebuild() (lib/db/sql/reports.sql, the migrations' backfill);
//  2. times each report through the full /v1 pipeline (key look-up, rate limit, ETag): p50/p99 of
//     the full 200 answer and of the 304 revalidation;
//  3. times the rollups absorbing 100,000 new engagement events (60,000 opens, 40,000 clicks):
//     the sends updates with their queue inserts, then the fold.
// Options: --contacts N (1000000), --campaigns N (200), --per-campaign N (25000), --requests N (100).
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values: options } = parseArgs({
  options: {
    contacts: { type: "string", default: "1000000" },
    campaigns: { type: "string", default: "200" },
    "per-campaign": { type: "string", default: "25000" },
    requests: { type: "string", default: "100" },
  },
});
const CONTACTS = Number(options.contacts);
const CAMPAIGNS = Number(options.campaigns);
const PER_CAMPAIGN = Number(options["per-campaign"]);
const REQUESTS = Number(options.requests);

const serverUrl = process.env.DATABASE_URL;
const benchDb = `bench_reports_${Date.now().toString(36)}`;
const dataDir = path.resolve(".data", `bench-reports-${Date.now()}`);
if (serverUrl) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${benchDb}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${benchDb}`;
  process.env.DATABASE_URL = url.toString();
} else {
  process.env.DATA_DIR = dataDir;
}
process.env.CURSOR_SECRET ||= randomBytes(16).toString("hex");
// One log line per workflow step or API request would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";

// Imported after the environment is set.
const { openDatabase } = await import("@/lib/db/database");
const { defaultCtx } = await import("@/lib/context");
const { closeDb } = await import("@/lib/db/client");
const { sql } = await import("drizzle-orm");
const { createApiKey } = await import("@/lib/api-keys/create-api-key");
const { systemActor } = await import("@/lib/actor");
const { apiClient } = await import("@/lib/testing/api-client");
const { foldEngagement } = await import("@/lib/reports/fold-engagement");

const database = await openDatabase();
const ctx = defaultCtx();
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const fmt = (n: number) => n.toLocaleString("en");

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = Date.now();
  const result = await fn();
  console.log(`  ${label}: ${seconds(Date.now() - start)} s`);
  return result;
}

try {
  const ws = "ws_benchreports00000000000000";
  const br = "br_benchreports00000000000000";
  const tp = "tp_benchreports00000000000000";
  const sends = CAMPAIGNS * PER_CAMPAIGN;
  console.log(
    `seeding ${fmt(CONTACTS)} contacts, ${CAMPAIGNS} sent campaigns, ${fmt(sends)} sends with ${fmt(sends * 2)} engagement events`,
  );
  const seedStart = Date.now();
  await ctx.db.execute(sql`insert into workspaces (id, name, approved_at) values (${ws}, 'Bench', now())`);
  await ctx.db.execute(
    sql`insert into workspace_billing (workspace_id, stage, stage_entered_at, send_allowance, period_started_at) values (${ws}, 'active', now(), 100000000, now() - interval '10 days')`,
  );
  await ctx.db.execute(
    sql`insert into brands (id, workspace_id, name, legal_name, postal_address, website_url, sender_email, review_status) values (${br}, ${ws}, 'Bench', 'Bench Ltd', '1 Way', 'https://bench.example', 'news@bench.example', 'approved')`,
  );
  await ctx.db.transaction(async (tx) => {
    // Bulk rows without the per-statement report triggers: report_rebuild() below computes the figures once.
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(
      sql`insert into topics (id, workspace_id, brand_id, name, requires_confirmation) values (${tp}, ${ws}, ${br}, 'News', false)`,
    );
    await timed("contacts", () =>
      tx.execute(sql`
      insert into contacts (id, workspace_id, email, created_at)
      select 'ct_' || lpad(to_hex(i), 26, '0'), ${ws}, 'person' || i || '@bench.example', now() - interval '400 days' * random()
      from generate_series(0, ${CONTACTS - 1}::int) i`),
    );
    await timed("subscriptions", () =>
      tx.execute(sql`
      insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
      select 'sub_' || lpad(to_hex(i), 26, '0'), ${ws}, 'ct_' || lpad(to_hex(i), 26, '0'), ${tp}, case when i % 50 = 0 then 'unsubscribed' else 'subscribed' end, 'api'
      from generate_series(0, ${CONTACTS - 1}::int) i`),
    );
    await tx.execute(sql`
      insert into suppressions (id, workspace_id, email, reason)
      select 'sup_' || lpad(to_hex(i), 26, '0'), ${ws}, 'person' || i || '@bench.example', case when i % 2 = 0 then 'bounce' else 'complaint' end
      from generate_series(1, ${CONTACTS - 1}::int, 97) i`);
    // Campaign c was sent c days ago (newest is campaign 0).
    await tx.execute(sql`
      insert into campaigns (id, workspace_id, brand_id, topic_id, name, subject, html, status, sent_at, completed_at, recipient_count)
      select 'cmp_' || lpad(to_hex(c), 26, '0'), ${ws}, ${br}, ${tp}, 'Campaign ' || c, 'Subject ' || c, '<p>x</p>', 'sent',
             now() - c * interval '1 day', now() - c * interval '1 day' + interval '1 hour', ${PER_CAMPAIGN}::int
      from generate_series(0, ${CAMPAIGNS - 1}::int) c`);
    // Every send delivered; 70 % opened, 30 % clicked, within two days of the send.
    await timed("sends", () =>
      tx.execute(sql`
      insert into sends (id, workspace_id, campaign_id, contact_id, email, state, accepted_at, delivered_at, opened_at, clicked_at)
      select 'snd_' || lpad(to_hex(c), 8, '0') || lpad(to_hex(k), 18, '0'), ${ws}, 'cmp_' || lpad(to_hex(c), 26, '0'),
             'ct_' || lpad(to_hex((c * 7919 + k) % ${CONTACTS}::int), 26, '0'), 'person' || ((c * 7919 + k) % ${CONTACTS}::int) || '@bench.example', 'accepted',
             t, t + interval '5 seconds',
             case when k % 10 < 7 then t + interval '2 days' * random() end,
             case when k % 10 < 3 then t + interval '2 days' * random() end
      from generate_series(0, ${CAMPAIGNS - 1}::int) c
      cross join lateral (select now() - c * interval '1 day' as t) s
      cross join generate_series(0, ${PER_CAMPAIGN - 1}::int) k`),
    );
  });
  await timed("report_rebuild (backfill of every figure)", () => ctx.db.execute(sql`select report_rebuild(${ws})`));
  await timed("analyze", () => ctx.db.execute(sql`analyze`));
  const [events] = await ctx.db.execute<{ n: string }>(
    sql`select count(delivered_at) + count(opened_at) + count(clicked_at) as n from sends`,
  );
  console.log(`seeded in ${seconds(Date.now() - seedStart)} s: ${fmt(Number(events!.n))} engagement events`);

  // Keys enough to stay under 30 requests per minute each.
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil((9 * (2 * REQUESTS + 1)) / 25) + 2; i++)
    keys.push((await createApiKey(ctx, systemActor("bench", ws), { kind: "secret", environment: "live" })).key);
  let turn = 0;
  const nextKey = () => keys[Math.floor(turn++ / 25) % keys.length]!;

  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  /** A window defaulting `to` to now moves with every request, so its answer is never the same twice: no 304 to time. */
  async function measure(pathAndQuery: string, revalidate = true) {
    const first = await apiClient(nextKey()).get(pathAndQuery);
    if (first.status !== 200) throw new Error(`${pathAndQuery}: ${first.status} ${JSON.stringify(first.body)}`);
    const etag = first.headers.get("etag")!;
    const full: number[] = [];
    const revalidated: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      let start = performance.now();
      const answer = await apiClient(nextKey()).get(pathAndQuery);
      full.push(performance.now() - start);
      if (answer.status !== 200) throw new Error(`${pathAndQuery}: ${answer.status}`);
      if (!revalidate) continue;
      start = performance.now();
      const notModified = await apiClient(nextKey()).get(pathAndQuery, { headers: { "if-none-match": etag } });
      revalidated.push(performance.now() - start);
      if (notModified.status !== 304) throw new Error(`${pathAndQuery}: expected 304, got ${notModified.status}`);
    }
    full.sort((a, b) => a - b);
    revalidated.sort((a, b) => a - b);
    const ms = (v: number) => v.toFixed(1).padStart(6);
    const notModified = revalidate
      ? `304 p50 ${ms(percentile(revalidated, 50))} ms  p99 ${ms(percentile(revalidated, 99))} ms`
      : "304 n/a (window ends now)";
    console.log(
      `  ${pathAndQuery.padEnd(64)} 200 p50 ${ms(percentile(full, 50))} ms  p99 ${ms(percentile(full, 99))} ms | ${notModified}`,
    );
  }

  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  console.log(`reports through the /v1 pipeline, ${REQUESTS} requests each (sequential, in process):`);
  await measure("/v1/reports/summary");
  await measure("/v1/reports/campaigns");
  await measure("/v1/reports/campaigns?limit=100");
  await measure(`/v1/reports/campaigns?from=${yearAgo}&to=${today}&limit=100`);
  const now = new Date().toISOString();
  await measure("/v1/reports/activity", false);
  await measure(`/v1/reports/activity?from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}&to=${now}`);
  await measure(`/v1/reports/activity?from=${yearAgo}T13:37:12.345Z&to=${now}&interval=week`);
  await measure(
    `/v1/reports/activity?from=${new Date(Date.now() - 399 * 86_400_000).toISOString()}&to=${now}&interval=day`,
  );

  console.log("absorbing 100,000 new engagement events (60,000 first opens, 40,000 first clicks):");
  const enqueueStart = Date.now();
  await ctx.db.execute(
    sql`update sends set opened_at = now() where id in (select id from sends where opened_at is null limit 60000)`,
  );
  await ctx.db.execute(
    sql`update sends set clicked_at = now() where id in (select id from sends where clicked_at is null and opened_at is not null limit 40000)`,
  );
  const enqueueMs = Date.now() - enqueueStart;
  const [queued] = await ctx.db.execute<{ n: string }>(sql`select count(*) as n from report_engagement_queue`);
  console.log(`  sends updated and ${fmt(Number(queued!.n))} events queued by the triggers: ${seconds(enqueueMs)} s`);
  const foldStart = Date.now();
  const folded = await foldEngagement(ctx);
  console.log(
    `  fold into campaign counters and activity rollups: ${fmt(folded)} events in ${seconds(Date.now() - foldStart)} s`,
  );
  const [check] = await ctx.db.execute<{ opened: string; actual: string }>(sql`
    select (select sum(opened) from report_campaign_counters where workspace_id = ${ws}) as opened,
           (select count(opened_at) from sends) as actual`);
  console.log(`  campaign counters' opened ${fmt(Number(check!.opened))} = sends opened ${fmt(Number(check!.actual))}`);
} finally {
  await closeDb();
  await database.close();
  if (serverUrl) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${benchDb}" with (force)`);
    await admin.end();
  } else {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
