// npm run bench:executor — the embedded executor alone holding many sleeping runs, as automations do
// (each person in an automation is a run that sleeps, wakes on time and goes on; bench:automations is the
// automation itself, mail and all). On a fresh
// database, with a clock the bench moves and the executor polling as the app's does:
//  1. RUNS runs (default 100,000) enter a function that sleeps one hour then does one step.run: the
//     events enqueued 1,000 per transaction (a list add), each run taken once to begin its sleep;
//  2. while they sleep: this process's RSS sampled for SLEEP_S seconds of polling (flat: nothing is
//     held or read per sleeping run), beside its RSS before the runs entered; and the plan of the claim
//     each poll makes, with RUNS rows asleep (an index range scan on (status, wake_at) that finds none);
//  3. the floor, in the same run: RUNS runs of a function with the same step and no sleep, inserted
//     stamped for a time ahead, then the clock moved to it: how late each step runs after they came due;
//  4. the clock moved one hour: how late each sleeper's step runs after its wake time passed.
// "Late" is the wall time from the clock passing the due time to the step running: p50, p99 and max,
// the wake-ups' beside the floor's and their ratio, with this process's CPU per run. All runs come due
// at one instant in both, so the p99 is mostly how long the executor takes to get through RUNS runs;
// the ratio is the cost of waking.
// Options: --runs N (default 100000), --workers N (default 8, as WORKFLOW_WORKERS), --poll-ms N (250, the
// app's), --sleep-s N (seconds of RSS sampling while they sleep, default 10).
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { freshBenchDatabase } from "./bench/bench-database";
import { sampleRss } from "./bench/sample-rss";
import { until } from "./bench/until";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "100000" },
    workers: { type: "string", default: "8" },
    "poll-ms": { type: "string", default: "250" },
    "sleep-s": { type: "string", default: "10" },
  },
});
const RUNS = Number(options.runs);
const WORKERS = Number(options.workers);
const POLL_MS = Number(options["poll-ms"]);
const SLEEP_S = Number(options["sleep-s"]);
const BATCH = 1000;
const HOUR = 60 * 60_000;

const benchDatabase = await freshBenchDatabase("automations");
// One log line per workflow step would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";

// Imported after the environment is set: the pool reads it.
const { sql } = await import("drizzle-orm");
const { eventType } = await import("inngest");
const { openDatabase } = await import("@/lib/db/database");
const { closeDb, getDb } = await import("@/lib/db/client");
const { fixedClock } = await import("@/lib/clock");
const { createEmbeddedExecutor } = await import("@/inngest/embedded/executor");
const { inngest, routeEmbeddedEvents } = await import("@/inngest/client");

const database = await openDatabase();
const start = new Date("2026-06-01T08:00:00.000Z");
const clock = fixedClock(start);
const ctx = { db: getDb(), clock };

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const gc = (globalThis as { gc?: () => void }).gc;

/** performance.now() when each run's step ran, by phase. */
const ranAt = { sleeper: [] as number[], floor: [] as number[] };
const entered = eventType("bench/automation.entered");
const direct = eventType("bench/automation.direct");
const functions = [
  inngest.createFunction({ id: "bench-automation", triggers: [entered] }, async ({ step }) => {
    await step.sleep("wait", "1h");
    await step.run("mail", () => void ranAt.sleeper.push(performance.now()));
  }),
  inngest.createFunction({ id: "bench-direct", triggers: [direct] }, async ({ step }) => {
    await step.run("mail", () => void ranAt.floor.push(performance.now()));
  }),
];
const executor = createEmbeddedExecutor({ client: inngest, functions, workers: WORKERS });
routeEmbeddedEvents((events) => executor.enqueue(ctx, events));

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await ctx.db.execute<{ n: number }>(query);
  return row!.n;
}

async function enqueueAll(name: string, ts?: number): Promise<number> {
  const started = performance.now();
  for (let from = 0; from < RUNS; from += BATCH) {
    const events = Array.from({ length: Math.min(BATCH, RUNS - from) }, (_, k) => ({
      name,
      data: { contactId: `ct_${from + k}` },
      ts,
    }));
    await ctx.db.transaction((tx) => executor.enqueue({ ...ctx, db: tx }, events));
  }
  return performance.now() - started;
}

function lateness(phase: number[], dueAt: number) {
  const late = phase.map((at) => (at - dueAt) / 1000).sort((a, b) => a - b);
  return { p50: percentile(late, 50), p99: percentile(late, 99), max: late[late.length - 1]! };
}

try {
  await executor.start(ctx, POLL_MS);
  gc?.();
  const rssBefore = process.memoryUsage.rss();

  // 1. Entry.
  const enqueueMs = await enqueueAll(entered.name);
  const entryStarted = performance.now();
  await until(
    "runs to begin their sleep",
    () =>
      count(
        sql`select count(*)::int as n from workflow_runs where function_id = 'mailservice-bench-automation' and status = 'pending' and wake_at > ${clock.now().toISOString()}::timestamptz`,
      ),
    RUNS,
    // A count of the table: seldom, not to load the database the executor works on.
    1000,
  );
  console.log(
    `entry: ${RUNS.toLocaleString("en")} runs enqueued in ${secs(enqueueMs)} (${BATCH} per transaction), all asleep ${secs(performance.now() - entryStarted)} later`,
  );

  // 2. Asleep: memory, and what each poll costs.
  clock.advance(HOUR / 2);
  gc?.();
  const { first, last, max } = await sampleRss(SLEEP_S);
  console.log(
    `RSS while ${RUNS.toLocaleString("en")} runs sleep (${SLEEP_S} s of polls every ${POLL_MS} ms): first ${mib(first)}, last ${mib(last)}, max ${mib(max)} ` +
      `(drift ${last >= first ? "+" : ""}${mib(last - first)}); floor: RSS before they entered ${mib(rssBefore)}, ratio ${(last / rssBefore).toFixed(2)}` +
      (gc ? "" : " (no --expose-gc: garbage of the entry may still be counted)"),
  );
  const plan = await ctx.db.execute<{ "QUERY PLAN": string }>(sql`
    explain (analyze, costs off, timing off, summary on)
    select r.id from workflow_runs r
    where r.status = 'pending' and r.wake_at <= ${clock.now().toISOString()}::timestamptz
      and (r.lease_until is null or r.lease_until < ${clock.now().toISOString()}::timestamptz)
    order by r.wake_at, r.id limit ${WORKERS * 4 + 16} for update skip locked`);
  console.log(`the claim's selection with ${RUNS.toLocaleString("en")} runs asleep (claim-runs.ts):`);
  for (const row of plan) console.log(`    ${row["QUERY PLAN"]}`);

  // 3. The floor: the same step, no sleep, all due at one instant.
  const floorDue = new Date(clock.now().getTime() + 60_000);
  await enqueueAll(direct.name, floorDue.getTime());
  clock.set(floorDue);
  const floorDueAt = performance.now();
  const floorCpu = process.cpuUsage();
  await until("the floor's runs", () => ranAt.floor.length, RUNS);
  const floor = { ...lateness(ranAt.floor, floorDueAt), cpu: process.cpuUsage(floorCpu) };

  // 4. The wake-ups (BENCH_CPU_PROFILE=file.cpuprofile: a CPU profile of this phase alone).
  const profiler = process.env.BENCH_CPU_PROFILE ? new (await import("node:inspector/promises")).Session() : undefined;
  profiler?.connect();
  await profiler?.post("Profiler.enable");
  await profiler?.post("Profiler.start");
  clock.set(new Date(start.getTime() + HOUR));
  const wakeDueAt = performance.now();
  const wakeCpu = process.cpuUsage();
  await until("the sleepers' steps", () => ranAt.sleeper.length, RUNS);
  const woken = { ...lateness(ranAt.sleeper, wakeDueAt), cpu: process.cpuUsage(wakeCpu) };
  if (profiler) {
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(process.env.BENCH_CPU_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }

  console.log(
    `lateness of ${RUNS.toLocaleString("en")} steps due at one instant (workers ${WORKERS}, poll ${POLL_MS} ms):`,
  );
  console.log(`                      p50        p99        max   process CPU per run`);
  // This process's CPU (user + system) until the last step ran, per run: on a shared machine the
  // lateness follows the load, the CPU a run costs much less so. The database's CPU is not in it.
  const row = (name: string, l: typeof floor) =>
    console.log(
      `  ${name.padEnd(18)} ${l.p50.toFixed(2).padStart(7)} s ${l.p99.toFixed(2).padStart(7)} s ${l.max.toFixed(2).padStart(7)} s ` +
        `${((l.cpu.user + l.cpu.system) / 1000 / RUNS).toFixed(2).padStart(7)} ms`,
    );
  row("after 1 h sleep", woken);
  row("floor (no sleep)", floor);
  console.log(
    `  ratio               ${(woken.p50 / floor.p50).toFixed(2).padStart(7)}   ${(woken.p99 / floor.p99).toFixed(2).padStart(7)}   ${(woken.max / floor.max).toFixed(2).padStart(7)}`,
  );
  const completed = () =>
    count(
      sql`select count(*)::int as n from workflow_runs where function_id = 'mailservice-bench-automation' and status = 'completed'`,
    );
  await until("the sleeping runs to complete", completed, RUNS, 1000);
  console.log(
    `  ${(await completed()).toLocaleString("en")} of ${RUNS.toLocaleString("en")} sleeping runs completed; steps run ${ranAt.sleeper.length.toLocaleString("en")} (once each: ${ranAt.sleeper.length === RUNS})`,
  );
  await executor.stop();
} finally {
  await closeDb();
  await database.close();
  await benchDatabase.remove();
}
