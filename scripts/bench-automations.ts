// npm run bench:automations — automations at scale with the product's own pieces: on a fresh database (embedded,
// or a new one on the server of DATABASE_URL), PEOPLE subscribers of a topic are added to a list at once by the
// contacts table's bulk action, which enters them into an active automation "on list add: mail, wait 1 hour,
// mail". Its mails go through the SMTP transport (DKIM-signed) to a local SMTP sink; the embedded executor runs
// every event-started workflow in this process, as the app's does, on a clock this bench moves (real time plus an
// offset, so leases and polls keep real time). Figures, each beside a floor from the same run:
//  1. entry: the bulk add until every person's first mail is accepted, in seconds and mails/s;
//  2. while they sleep: this process's RSS over SLEEP_S seconds of polls (flat: nothing is held per sleeping run);
//  3. the floor: one campaign to the same people with the same mail, sent now: how late each mail is accepted
//     after the send began (p50, p99, max) and mails/s;
//  4. the wake-ups: how late each second mail is accepted after the run's hour was up, beside the floor's, and
//     their ratio. The goal: p99 ≤ 60 s. With --due spread (the default) the clock moves to the first run's hour
//     and runs on, so each run comes due an hour after its own first mail, as in production: the wake-ups come
//     at the pace the first mails went. With --due at-once the clock moves past every run's hour at one instant,
//     a harder test than production's: every second mail is due together, as the campaign's mails are.
// At the end the sink must have received exactly three mails a person (two of the automation, one campaign).
// Options: --people N (default 100000), --workers N (default WORKFLOW_WORKERS, else 32 as the app), --sleep-s N (default 10),
// --due spread|at-once.
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";

import { freshBenchDatabase } from "./bench/bench-database";
import { seedBenchWorkspace } from "./bench/bench-workspace";
import { sampleRss } from "./bench/sample-rss";
import { until } from "./bench/until";

const { values: options } = parseArgs({
  options: {
    people: { type: "string", default: "100000" },
    workers: { type: "string", default: process.env.WORKFLOW_WORKERS || "32" },
    "sleep-s": { type: "string", default: "10" },
    due: { type: "string", default: "spread" },
  },
});
const PEOPLE = Number(options.people);
const WORKERS = Number(options.workers);
const SLEEP_S = Number(options["sleep-s"]);
const DUE = options.due;
if (DUE !== "spread" && DUE !== "at-once") throw new Error("--due is spread or at-once");
const SINK_PORT = 2527;
const HOUR = 60 * 60_000;
const GOAL_P99_S = 60;
/** Progress is a count of a table: asked seldom, not to load the database the executor works on. */
const SELDOM = 1000;

const benchDatabase = await freshBenchDatabase("automations");
// One log line per workflow step would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";
process.env.MAIL_TRANSPORT = "smtp";
process.env.SMTP_URL = `smtp://127.0.0.1:${SINK_PORT}`;
process.env.SMTP_POOL_SIZE = "8";
process.env.WORKFLOW_WORKERS = String(WORKERS);

// Imported after the environment is set: the transport and pool read it.
const { sql } = await import("drizzle-orm");
const { openDatabase } = await import("@/lib/db/database");
const { closeDb, getDb } = await import("@/lib/db/client");
const { systemActor } = await import("@/lib/actor");
const { createAutomation, setAutomationSteps, activateAutomation } = await import("@/lib/automations/automations");
const { startBulkAction } = await import("@/lib/contacts/contact-bulk-actions");
const { sendCampaignNow } = await import("@/lib/campaigns/campaign-actions");
const { setProviderRate } = await import("@/lib/campaigns/provider-pacing");
const { campaigns } = await import("@/lib/db/schema");
const { clearForSending } = await import("@/lib/testing/clear-for-sending");
const { createEmbeddedExecutor } = await import("@/inngest/embedded/executor");
const { inngest, routeEmbeddedEvents } = await import("@/inngest/client");
const { functions } = await import("@/inngest");
const { connectWorkflowEvents } = await import("@/inngest/emit");
const { setWorkflowCtx } = await import("@/inngest/workflow-ctx");

const database = await openDatabase();
/** Real time plus an offset the bench moves: the runs' hour passes at once, leases and polls keep real time. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const ctx = { db: getDb(), clock };
setWorkflowCtx(ctx);
connectWorkflowEvents();

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const gc = (globalThis as { gc?: () => void }).gc;

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await ctx.db.execute<{ n: number }>(query);
  return Number(row!.n);
}

/** Seconds from `due` (a clock instant) to each stamp the query returns, sorted. */
async function lateness(query: ReturnType<typeof sql>, due: Date) {
  const rows = await ctx.db.execute<{ at: string }>(query);
  const late = rows.map((row) => (new Date(row.at).getTime() - due.getTime()) / 1000).sort((a, b) => a - b);
  return { n: late.length, p50: percentile(late, 50), p99: percentile(late, 99), max: late[late.length - 1]! };
}

const sink = spawn(process.execPath, ["--import", "tsx", "scripts/bench/smtp-sink.ts"], {
  env: { ...process.env, PORT: String(SINK_PORT) },
  stdio: ["ignore", "pipe", "inherit"],
});
let sinkOutput = "";
sink.stdout.on("data", (chunk) => (sinkOutput += chunk));
while (!sinkOutput.includes("ready")) await new Promise((resolve) => setTimeout(resolve, 100));

const triggers = (fn: (typeof functions)[number]) =>
  (fn as unknown as { opts: { triggers?: { cron?: string }[] } }).opts.triggers ?? [];
// The workflows events start, not the crons: the clock jumps an hour, and an hourly cron's work is not the figure.
const executor = createEmbeddedExecutor({
  client: inngest,
  functions: functions.filter((fn) => !triggers(fn).some((trigger) => trigger.cron)),
  workers: WORKERS,
});
routeEmbeddedEvents((events) => executor.enqueue(ctx, events));

try {
  // A workspace cleared for sending, PEOPLE subscribers of one topic, an empty list, the automation on it.
  const seedStart = performance.now();
  const ws = "ws_bench0000000000000000000000";
  const br = "br_bench0000000000000000000000";
  const topic = "tp_bench0000000000000000000000";
  const list = "ls_bench0000000000000000000000";
  await seedBenchWorkspace(ctx, { workspaceId: ws, brandId: br });
  await ctx.db.execute(
    sql`insert into topics (id, workspace_id, brand_id, name, requires_confirmation) values (${topic}, ${ws}, ${br}, 'News', false)`,
  );
  await ctx.db.execute(sql`insert into lists (id, workspace_id, brand_id, name) values (${list}, ${ws}, ${br}, 'New')`);
  await clearForSending(ctx, ws);
  await ctx.db.execute(sql`insert into contacts (id, workspace_id, email, first_name)
    select 'ct_' || lpad(to_hex(i), 26, '0'), ${ws}, 'person' || i || '@bench.example', 'P' || i from generate_series(1, ${PEOPLE}::int) i`);
  await ctx.db.execute(sql`insert into subscriptions (id, workspace_id, contact_id, topic_id, state, source)
    select 'sub_' || lpad(to_hex(i), 26, '0'), ${ws}, 'ct_' || lpad(to_hex(i), 26, '0'), ${topic}, 'subscribed', 'api' from generate_series(1, ${PEOPLE}::int) i`);
  await ctx.db.execute(sql`vacuum analyze`);
  await ctx.db.execute(sql`checkpoint`);
  const actor = systemActor("bench", ws);
  // Every recipient is at one provider (bench.example: `other`), its rate out of reach: pacing costs, never waits.
  await setProviderRate(ctx, actor, { provider: "other", ratePerMinute: 1_000_000 });
  const subject = "Hello {{contact.first_name}}";
  const html = '<p>Hello {{contact.first_name}}, see <a href="https://bench.example/news">the news</a>.</p>';
  const { automationId } = await createAutomation(ctx, actor, {
    name: "Welcome",
    topic_id: topic,
    trigger: "list_added",
    trigger_settings: { list_id: list },
  });
  await setAutomationSteps(ctx, actor, automationId, {
    steps: [
      { type: "send", subject, html },
      { type: "wait", minutes: 60 },
      { type: "send", subject, html },
    ],
  });
  await activateAutomation(ctx, actor, automationId);
  console.log(`seeded ${PEOPLE.toLocaleString("en")} subscribers in ${secs(performance.now() - seedStart)}`);

  await executor.start(ctx, 250);
  gc?.();
  const rssBefore = process.memoryUsage.rss();
  const mailed = (step: number) => () =>
    count(
      sql`select count(*)::int as n from automation_sends where automation_id = ${automationId} and step_index = ${step} and status = 'sent'`,
    );

  // 1. Entry: one bulk add to the list, as the contacts table's "Add to list" on everyone.
  const entryStart = performance.now();
  const entryDue = clock.now();
  await startBulkAction(ctx, actor, { kind: "add_to_list", listId: list, filters: {} });
  await until("first mails", mailed(0), PEOPLE, SELDOM);
  const entryMs = performance.now() - entryStart;
  const first = await lateness(
    sql`select sent_at as at from automation_sends where automation_id = ${automationId} and step_index = 0`,
    entryDue,
  );
  console.log(
    `1. entry: ${PEOPLE.toLocaleString("en")} added to the list at once; every first mail accepted ${secs(entryMs)} later = ${Math.round(PEOPLE / (entryMs / 1000))} mails/s (p50 ${first.p50.toFixed(2)} s, p99 ${first.p99.toFixed(2)} s after the add)`,
  );

  // 2. Asleep: memory while every run waits out its hour.
  await until(
    "runs to begin their wait",
    () =>
      count(
        sql`select count(*)::int as n from workflow_runs where function_id = 'mailservice-automation-entry' and status = 'pending' and wake_at > ${new Date(clock.now().getTime() + HOUR / 2).toISOString()}::timestamptz`,
      ),
    PEOPLE,
    SELDOM,
  );
  gc?.();
  const rss = await sampleRss(SLEEP_S);
  console.log(
    `2. asleep: RSS over ${SLEEP_S} s of polls with ${PEOPLE.toLocaleString("en")} runs waiting: first ${mib(rss.first)}, last ${mib(rss.last)}, max ${mib(rss.max)}; floor: RSS before they entered ${mib(rssBefore)}, ratio ${(rss.last / rssBefore).toFixed(2)}` +
      (gc ? "" : " (no --expose-gc)"),
  );

  // 3. The floor: the same mail to the same people as one campaign, sent now (the runs sleep on meanwhile).
  const campaign = "cmp_bench0000000000000000000000";
  await ctx.db
    .insert(campaigns)
    .values({ id: campaign, workspaceId: ws, brandId: br, topicId: topic, name: "Floor", subject, html });
  const floorDue = clock.now();
  const floorStart = performance.now();
  await sendCampaignNow(ctx, actor, campaign);
  await until(
    "the campaign",
    () => count(sql`select count(*)::int as n from sends where campaign_id = ${campaign} and accepted_at is not null`),
    PEOPLE,
    SELDOM,
  );
  const floorMs = performance.now() - floorStart;
  const floor = await lateness(
    sql`select accepted_at as at from sends where campaign_id = ${campaign} and accepted_at is not null`,
    floorDue,
  );

  // 4. The wake-ups. Each run's due time is kept before it wakes (its row's wake time is its next one after).
  await ctx.db.execute(sql`create table bench_due as
    select event->'data'->>'entryId' as entry_id, wake_at as due from workflow_runs
    where function_id = 'mailservice-automation-entry' and status = 'pending'`);
  const [{ first: firstWake, last: lastWake }] = (await ctx.db.execute<{ first: string; last: string }>(
    sql`select min(due) as first, max(due) as last from bench_due`,
  )) as unknown as [{ first: string; last: string }];
  const moveTo = new Date(DUE === "spread" ? firstWake : lastWake).getTime() + (DUE === "spread" ? 0 : 1000);
  offsetMs += Math.max(0, moveTo - clock.now().getTime());
  const wakeStart = performance.now();
  await until("second mails", mailed(2), PEOPLE, SELDOM);
  const wakeMs = performance.now() - wakeStart;
  const wakeLate = await ctx.db.execute<{ late: number }>(
    sql`select extract(epoch from greatest(s.sent_at, ${new Date(moveTo).toISOString()}::timestamptz) - greatest(d.due, ${new Date(moveTo).toISOString()}::timestamptz))::float8 as late
      from automation_sends s join automation_entries e on e.id = s.entry_id join bench_due d on d.entry_id = e.id
      where s.automation_id = ${automationId} and s.step_index = 2`,
  );
  const lateSorted = wakeLate.map((row) => Number(row.late)).sort((a, b) => a - b);
  const woken = {
    n: lateSorted.length,
    p50: percentile(lateSorted, 50),
    p99: percentile(lateSorted, 99),
    max: lateSorted[lateSorted.length - 1]!,
  };
  const rate = (ms: number) => Math.round(PEOPLE / (ms / 1000));
  console.log(
    DUE === "spread"
      ? `lateness of ${PEOPLE.toLocaleString("en")} second mails, each due an hour after the run's first, beside one campaign's (workers ${WORKERS}):`
      : `lateness of ${PEOPLE.toLocaleString("en")} mails due at one instant (workers ${WORKERS}):`,
  );
  console.log(`                                  p50        p99        max   mails/s`);
  const row = (name: string, l: typeof floor, ms: number) =>
    console.log(
      `  ${name.padEnd(30)} ${l.p50.toFixed(2).padStart(7)} s ${l.p99.toFixed(2).padStart(7)} s ${l.max.toFixed(2).padStart(7)} s ${String(rate(ms)).padStart(8)}`,
    );
  row("4. woken after 1 h, 2nd mail", woken, wakeMs);
  row("3. floor: one campaign", floor, floorMs);
  console.log(
    `  ratio                          ${(woken.p50 / floor.p50).toFixed(2).padStart(7)}   ${(woken.p99 / floor.p99).toFixed(2).padStart(7)}   ${(woken.max / floor.max).toFixed(2).padStart(7)}`,
  );
  console.log(
    `goal: wake-ups p99 ≤ ${GOAL_P99_S} s late: ${woken.p99 <= GOAL_P99_S ? "met" : "not met"} (${woken.p99.toFixed(2)} s; the campaign floor's p99 ${floor.p99.toFixed(2)} s)`,
  );
  await until(
    "entries to complete",
    () =>
      count(
        sql`select count(*)::int as n from automation_entries where automation_id = ${automationId} and status = 'completed'`,
      ),
    PEOPLE,
    SELDOM,
  );
  await executor.stop();
  sink.kill("SIGTERM");
  await new Promise((resolve) => sink.once("exit", resolve));
  const received = Number(/received (\d+)/.exec(sinkOutput)?.[1] ?? 0);
  console.log(
    `the sink received ${received.toLocaleString("en")} mails for ${PEOPLE.toLocaleString("en")} people: ${received === PEOPLE * 3 ? "three each, none twice" : `expected ${(PEOPLE * 3).toLocaleString("en")}`}`,
  );
  if (received !== PEOPLE * 3) process.exitCode = 1;
} finally {
  if (sink.exitCode === null) sink.kill("SIGTERM");
  await closeDb();
  await database.close();
  await benchDatabase.remove();
}
