// npm run bench:webhooks — on a fresh embedded database, 3 endpoints on a loopback receiver, and
// the embedded executor running in the same process, as the app runs it:
// - live: EVENTS events (default 20,000; ten per contact, so per-contact ordering is in play), each
//   recorded in its own transaction as the app records them, CONCURRENCY at a time (as concurrent
//   requests do). Prints deliveries per second, the RSS and the delay from an event's recording to
//   its arrival at the receiver (p50, p99, max).
// - fan-out: BACKLOG more events (default 100,000) recorded while the executor is stopped, 1,000 per
//   transaction as an import or a campaign records them, and the rate at which it drains their
//   deliveries once started.
// Beside each, its floor measured in the same run: a bare HTTP client posting as many prebuilt, signed
// bodies as that figure delivers, to the same receiver with as many connections. As many, because the
// floor's own rate grows with its length (the receiver warms up: 3,000 posts gave a third of the rate
// of 60,000), so a floor shorter than the figure it is compared with flatters the figure.
// Options: --events N (default 20000), --backlog N (default 100000), --endpoints N (default 3),
// --workers N (default 8), --concurrency N (default 16).
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { and, eq, sql } from "drizzle-orm";

const { values: options } = parseArgs({
  options: {
    events: { type: "string", default: "20000" },
    backlog: { type: "string", default: "100000" },
    endpoints: { type: "string", default: "3" },
    workers: { type: "string", default: "8" },
    concurrency: { type: "string", default: "16" },
  },
});
const EVENTS = Number(options.events);
const BACKLOG = Number(options.backlog);
const ENDPOINTS = Number(options.endpoints);
const SINK_PORT = 2527;

const dataDir = path.resolve(".data", `bench-webhooks-${Date.now()}`);
const sinkOut = path.join(dataDir, "arrivals.json");
process.env.DATA_DIR = dataDir;
// One log line per workflow step or API request would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";
delete process.env.DATABASE_URL;
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "1";

const { openDatabase } = await import("@/lib/db/database");
const { defaultCtx } = await import("@/lib/context");
const { closeDb } = await import("@/lib/db/client");
const { events, webhookDeliveries } = await import("@/lib/db/schema");
const { recordEvent, recordEvents: recordEventBatch } = await import("@/lib/events/record-event");
const { createEndpoint } = await import("@/lib/webhooks/endpoints");
const { systemActor } = await import("@/lib/actor");
const { createEmbeddedExecutor } = await import("@/inngest/embedded/executor");
const { inngest, routeEmbeddedEvents } = await import("@/inngest/client");
const { functions } = await import("@/inngest");
const { connectWorkflowEvents } = await import("@/inngest/emit");
const { bareWebhookFloor } = await import("./bench/bare-webhook-client");
const { CONNECTIONS_PER_ENDPOINT } = await import("@/lib/webhooks/post-webhook");
// The floor posts with as many connections as delivery may hold open: each endpoint's own.
const FLOOR_CONCURRENCY = CONNECTIONS_PER_ENDPOINT * ENDPOINTS;

connectWorkflowEvents();
const database = await openDatabase();
const ctx = defaultCtx();
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

try {
  const ws = "ws_bench0000000000000000000000";
  await ctx.db.execute(sql`insert into workspaces (id, name, approved_at) values (${ws}, 'Bench', now())`);
  const sink = spawn(process.execPath, ["--import", "tsx", "scripts/bench/webhook-sink.ts"], {
    env: { ...process.env, PORT: String(SINK_PORT), OUT: sinkOut },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let sinkOutput = "";
  sink.stdout.on("data", (chunk) => (sinkOutput += chunk));
  while (!sinkOutput.includes("ready")) await new Promise((resolve) => setTimeout(resolve, 100));
  for (let i = 0; i < ENDPOINTS; i++)
    await createEndpoint(ctx, systemActor("bench", ws), {
      url: `http://127.0.0.1:${SINK_PORT}/endpoint-${i}`,
      eventTypes: [],
    });

  const executor = createEmbeddedExecutor({ client: inngest, functions, workers: Number(options.workers) });
  routeEmbeddedEvents((sent) => executor.enqueue(ctx, sent));
  await executor.start(ctx, 50);

  // Ten events per contact, so one contact's deliveries to an endpoint are ordered.
  const eventData = (i: number, now: Date) => {
    const contact = `ct_bench${String(Math.floor(i / 10)).padStart(22, "0")}`;
    return {
      send_id: `snd_bench${String(i).padStart(21, "0")}`,
      campaign_id: "cmp_bench",
      campaign_name: "Bench",
      contact_id: contact,
      email: `${contact}@bench.example`,
      occurred_at: now.toISOString(),
      country: null,
    };
  };
  // Live: one transaction per event, CONCURRENCY recorders taking the next event in turn.
  const recordEvents = async (from: number, count: number) => {
    let next = from;
    const recorder = async () => {
      while (next < from + count) {
        const i = next++;
        const now = new Date();
        await recordEvent(ctx, systemActor("bench", ws), "email.opened", eventData(i, now), now);
      }
    };
    await Promise.all(Array.from({ length: Number(options.concurrency) }, recorder));
  };
  // The backlog: 1,000 events per transaction, as an import or a campaign records them.
  const recordBacklog = async (from: number, count: number) => {
    for (let start = from; start < from + count; start += 1000) {
      const now = new Date();
      const items = Array.from({ length: Math.min(1000, from + count - start) }, (_, k) => ({
        data: eventData(start + k, now),
        occurredAt: now,
      }));
      await recordEventBatch(ctx, systemActor("bench", ws), "email.opened", items);
    }
  };
  // Called once every event is recorded: done when none is pending (an index probe, not a count over every delivery), then checked.
  const untilDelivered = async (expected: number) => {
    for (;;) {
      const pending = await ctx.db.execute(sql`select 1 from ${webhookDeliveries} where status = 'pending' limit 1`);
      if (pending.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [{ done }] = (await ctx.db.execute(
      sql`select count(*)::int as done from ${webhookDeliveries} where status = 'succeeded'`,
    )) as unknown as [{ done: number }];
    if (done < expected) throw new Error(`${done} of ${expected} deliveries succeeded`);
  };

  // Memory flat: the process's RSS each second while the events are recorded and delivered.
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 1000);
  const started = Date.now();
  await recordEvents(0, EVENTS);
  const recordedMs = Date.now() - started;
  const expected = EVENTS * ENDPOINTS;
  await untilDelivered(expected);
  const totalMs = Date.now() - started;
  clearInterval(sampler);
  await executor.stop();

  await recordBacklog(EVENTS, BACKLOG);
  const drainStart = Date.now();
  await executor.start(ctx, 50);
  await untilDelivered(expected + BACKLOG * ENDPOINTS);
  const drainMs = Date.now() - drainStart;
  await executor.stop();
  const floor = (deliveries: number) =>
    bareWebhookFloor({ port: SINK_PORT, deliveries, endpoints: ENDPOINTS, concurrency: FLOOR_CONCURRENCY });
  const liveFloorMs = await floor(expected);
  const fanOutFloorMs = await floor(BACKLOG * ENDPOINTS);
  sink.kill("SIGTERM");
  await new Promise((resolve) => sink.once("exit", resolve));

  const createdAt = new Map(
    (
      await ctx.db.select({ id: events.id, createdAt: events.createdAt }).from(events).where(eq(events.workspaceId, ws))
    ).map((e) => [e.id, e.createdAt.getTime()]),
  );
  const arrivals = JSON.parse(readFileSync(sinkOut, "utf8")) as [string, number][];
  const liveIds = new Set([...createdAt.keys()].sort().slice(0, EVENTS));
  const delays = arrivals
    .filter(([key]) => liveIds.has(key.split("|")[1]!))
    .map(([key, at]) => at - createdAt.get(key.split("|")[1]!)!)
    .sort((a, b) => a - b);
  const failed = await ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, ws), eq(webhookDeliveries.status, "failed")));
  console.log(
    `recorded ${EVENTS.toLocaleString("en")} events in ${seconds(recordedMs)} s (${Math.round(EVENTS / (recordedMs / 1000)).toLocaleString("en")} events/s, each with ${ENDPOINTS} deliveries queued in its transaction)`,
  );
  const floorLine = (posts: number, ms: number) => {
    console.log(
      `floor: bare HTTP client, ${posts.toLocaleString("en")} prebuilt signed posts to the same receiver, ${FLOOR_CONCURRENCY} at a time, in ${seconds(ms)} s = ${Math.round(posts / (ms / 1000)).toLocaleString("en")} posts/s`,
    );
    const floorRate = posts / (ms / 1000);
    return (rate: number) => `${((rate / floorRate) * 100).toFixed(rate / floorRate < 0.1 ? 1 : 0)} % of the floor`;
  };
  const liveShare = floorLine(expected, liveFloorMs);
  console.log(
    `delivered ${delays.length.toLocaleString("en")} of ${expected.toLocaleString("en")} in ${seconds(totalMs)} s from the first event = ${Math.round(expected / (totalMs / 1000)).toLocaleString("en")} deliveries/s = ${liveShare(expected / (totalMs / 1000))} (${options.workers} workers, ${options.concurrency} recorders); ${failed.length} failed`,
  );
  const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
  const quarter = Math.floor(rss.length / 4);
  console.log(
    `RSS while delivering: ${mib(rss[0]!)} at 1 s, ${mib(rss[quarter]!)} at a quarter, ${mib(rss.at(-1)!)} at the end, peak ${mib(Math.max(...rss))}`,
  );
  console.log(
    `event → delivery delay: p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${delays.at(-1)} ms`,
  );
  const fanOutShare = floorLine(BACKLOG * ENDPOINTS, fanOutFloorMs);
  console.log(
    `fan-out: ${BACKLOG.toLocaleString("en")} events' ${(BACKLOG * ENDPOINTS).toLocaleString("en")} queued deliveries drained in ${seconds(drainMs)} s = ${Math.round((BACKLOG * ENDPOINTS) / (drainMs / 1000)).toLocaleString("en")} deliveries/s = ${fanOutShare((BACKLOG * ENDPOINTS) / (drainMs / 1000))}`,
  );
} finally {
  await closeDb();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
