// npm run bench:api — throughput and latency of the /v1 routes on the built app, served as `npm start`
// serves it (scripts/serve.ts), with an embedded database of 100,000 contacts, each against its floor
// measured in the same run: for a read route an empty Next.js route, run just before and just after
// the route; for a write route the lower of that and a bare Node server doing the route's single
// statement (an upsert, bound by its commit). Many keys, so rate limits never bind, each used once
// before the timed runs (as a running service's keys have been).
// Then a per-stage profile: each route alone, one request at a time, its mean time split into the
// framework (what the client waited beyond the route's own time), authentication with the rate
// limit, input, the handler and the answer, read from the app's request log.
// Options: --duration SECONDS (default 10), --connections N (default 32), --no-build,
// --only TEXT (scenarios whose name contains it, plus the floors), --profile DIR (CPU profiles of the app),
// --statements (PostgreSQL's side of each scenario, statement by statement: see bench/statement-profile.ts;
// pg_stat_statements costs a little of every statement, so compare such a run's ratios only with another).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { openSync, readFileSync, rmSync, statSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";

import { generateKey, hashKey } from "@/lib/api-keys/key-format";
import { openDatabase } from "@/lib/db/database";
import { newId } from "@/lib/ids";

import { postgresCpuSeconds, processCpuSeconds } from "./bench/process-cpu";
import { printStatementProfile, startStatementProfile, STATEMENT_PROFILE_SETTINGS } from "./bench/statement-profile";

const { values: options } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    "no-build": { type: "boolean" },
    only: { type: "string" },
    profile: { type: "string" },
    statements: { type: "boolean" },
  },
});
const duration = Number(options.duration);
const connections = Number(options.connections);
const CONTACTS = 100_000;
const KEYS = 1500;
const APP_PORT = 3301;
const PROFILE_WARMING = 20;
const PROFILE_REQUESTS = 200;
const CEILING_PORT = 3302;

const dataDir = path.resolve(".data", `bench-api-${Date.now()}`);
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;

if (!options["no-build"]) {
  console.log("building…");
  if (spawnSync("npx", ["next", "build"], { stdio: "ignore" }).status !== 0) throw new Error("next build failed");
}

const database = await openDatabase(options.statements ? { settings: STATEMENT_PROFILE_SETTINGS } : {});
const children: ChildProcess[] = [];
try {
  const seed = await seedWorkspace(database.url);
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    NODE_ENV: "production" as const,
    BENCH_WORKSPACE_ID: seed.workspaceId,
  };
  const profiling = options.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(options.profile)}`] : [];
  // The app logs one line per request, synchronously, to a file (as it would in production): read back for the profile.
  const appLog = path.join(dataDir, "app.log");
  // What ships: the server `npm start` runs (scripts/serve.ts start: a custom Node server in front of
  // Next.js), not `next start`. Run by node with tsx's loader, as `tsx` does, so that --cpu-prof profiles it;
  // with `npm start`'s --expose-gc.
  const app = spawn(process.execPath, [...profiling, "--expose-gc", "--import", "tsx", "scripts/serve.ts", "start"], {
    env: { ...env, PORT: String(APP_PORT) },
    stdio: ["ignore", openSync(appLog, "a"), "ignore"],
    detached: true,
  });
  children.push(app);
  const requestLinesFrom = (offset: number): RequestLine[] =>
    readFileSync(appLog)
      .subarray(offset)
      .toString("utf8")
      .split("\n")
      .filter((line) => line.includes('"api request"'))
      .map((line) => JSON.parse(line) as RequestLine);
  children.push(
    spawn("npx", ["tsx", "scripts/bench/ceiling-server.ts"], {
      env: { ...env, PORT: String(CEILING_PORT) },
      stdio: "ignore",
      detached: true,
    }),
  );
  await waitFor(`http://127.0.0.1:${APP_PORT}/api/health`);
  await waitFor(`http://127.0.0.1:${CEILING_PORT}/`, "POST", '{"email":"warm@example.com"}');

  let n = 0;
  const next = () => n++;
  const secret = (i: number) => seed.secretKeys[i % seed.secretKeys.length]!;
  const publishable = (i: number) => seed.publishableKeys[i % seed.publishableKeys.length]!;
  const appUrl = `http://127.0.0.1:${APP_PORT}`;
  const ceiling = `http://127.0.0.1:${CEILING_PORT}`;
  const EMPTY_ROUTE = "empty Next.js route (floor)";
  const BARE_UPSERT = "bare Node: upsert contact (write floor)";
  const BARE_QUERY = "bare Node: 100 newest contacts (the query alone)";
  const floors = [EMPTY_ROUTE, BARE_UPSERT];

  const json = { "content-type": "application/json" };
  const scenarios: Scenario[] = [
    { name: EMPTY_ROUTE, base: appUrl, method: "GET", make: () => ({ path: "/api/health" }) },
    {
      name: BARE_UPSERT,
      base: ceiling,
      method: "POST",
      make: (i) => ({ path: "/", headers: json, body: JSON.stringify({ email: `bare${i}@bench.example` }) }),
    },
    {
      name: "POST /v1/subscribe",
      base: appUrl,
      method: "POST",
      make: (i) => ({
        path: "/v1/subscribe",
        headers: { ...json, authorization: `Bearer ${publishable(i)}` },
        body: JSON.stringify({ topic_id: seed.topicId, email: `form${i}@bench.example` }),
      }),
    },
    {
      name: "POST /v1/contacts",
      base: appUrl,
      method: "POST",
      make: (i) => ({
        path: "/v1/contacts",
        headers: { ...json, authorization: `Bearer ${secret(i)}` },
        body: JSON.stringify({ email: `api${i}@bench.example`, first_name: "Bench" }),
      }),
    },
    {
      name: "GET /v1/contacts?limit=100",
      base: appUrl,
      method: "GET",
      make: (i) => ({ path: "/v1/contacts?limit=100", headers: { authorization: `Bearer ${secret(i)}` } }),
    },
    { name: BARE_QUERY, base: ceiling, method: "GET", make: () => ({ path: "/" }) },
  ];
  const chosen = scenarios.filter(({ name }) => floors.includes(name) || !options.only || name.includes(options.only));

  // Every key used once before anything is timed, as a running service's keys have been: the app then
  // holds each in its key cache and has stamped its last use (once a minute), and the scenarios measure
  // that steady state rather than each key's first request (a look-up and a stamp: two statements more).
  // Neither warming request writes: a secret key lists the topics, a publishable one signs up with the
  // honeypot filled, which is answered and dropped.
  const warming = [
    { keys: seed.secretKeys, method: "GET" as const, path: "/v1/topics", body: undefined },
    {
      keys: seed.publishableKeys,
      method: "POST" as const,
      path: "/v1/subscribe",
      body: JSON.stringify({ topic_id: seed.topicId, email: "warm@bench.example", website: "x" }),
    },
  ];
  for (const { keys, method, path: warmingPath, body } of warming) {
    let k = 0;
    const result = await autocannon({
      url: appUrl,
      connections,
      amount: keys.length,
      requests: [
        {
          method,
          setupRequest: (request) => ({
            ...request,
            path: warmingPath,
            body,
            headers: { ...json, authorization: `Bearer ${keys[k++ % keys.length]}` },
          }),
        },
      ],
    });
    if (result.non2xx + result.errors > 0)
      throw new Error(`warming the keys failed: ${result.non2xx + result.errors} requests`);
  }

  const cpuNow = () => ({ app: processCpuSeconds(app.pid!), postgres: postgresCpuSeconds(dataDir) });
  const measure = async ({ name, base, method, make }: Scenario) => {
    const requests: autocannon.Request[] = [{ method, setupRequest: (request) => ({ ...request, ...make(next()) }) }];
    await autocannon({ url: base, connections, duration: 2, requests }); // warm-up
    await settle(database.url);
    const statements = options.statements ? await startStatementProfile(database.url) : null;
    const cpuBefore = cpuNow();
    const result = await autocannon({ url: base, connections, duration, requests });
    // The workflows the scenario started (confirmation mail) are its work too, and must not run in the next one's time.
    let cpuAfter = cpuBefore;
    await settle(database.url, async () => {
      cpuAfter = cpuNow();
      if (statements) await printStatementProfile(database.url, name, result.requests.total, statements);
    });
    const perRequest = (before: number | null, after: number | null) =>
      before === null || after === null ? null : ((after - before) * 1000) / result.requests.total;
    return {
      name,
      write: method !== "GET",
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      // CPU ms a request, from the timed run's start to its workflows' end: the app's (its scenarios only) and PostgreSQL's.
      appCpuMs: base === appUrl ? perRequest(cpuBefore.app, cpuAfter.app) : null,
      postgresCpuMs: perRequest(cpuBefore.postgres, cpuAfter.postgres),
    };
  };
  // The empty route's rate moves by half from one minute to the next on this kind of machine, more than
  // any route's: so it runs again after every route, and a route is divided by the mean of the runs
  // just before and just after it rather than by one run minutes away.
  const emptyScenario = chosen.find(({ name }) => name === EMPTY_ROUTE)!;
  const emptyRuns = [await measure(emptyScenario)];
  const writeFloorRun = await measure(chosen.find(({ name }) => name === BARE_UPSERT)!);
  const rows: (Awaited<ReturnType<typeof measure>> & { floor: number | null })[] = [];
  for (const scenario of chosen.filter(({ name }) => !floors.includes(name))) {
    const row = await measure(scenario);
    if (scenario.name === BARE_QUERY) {
      rows.push({ ...row, floor: null });
      continue;
    }
    emptyRuns.push(await measure(emptyScenario));
    const around = (emptyRuns.at(-2)!.rps + emptyRuns.at(-1)!.rps) / 2;
    rows.push({ ...row, floor: row.write ? Math.min(around, writeFloorRun.rps) : around });
  }
  const emptyRates = emptyRuns.map((run) => run.rps);
  console.log(
    `\n${CONTACTS.toLocaleString("en")} contacts, ${KEYS} keys of each kind, ${connections} connections, ${duration} s per scenario, ${process.env.DATABASE_POOL_SIZE || 10} database connections per process`,
  );
  console.log(
    `floor of each route: the mean of the empty route's runs just before and after it (write routes: or the bare upsert, if lower); empty route ${emptyRates.map((rps) => rps.toFixed(0)).join(", ")} req/s in its ${emptyRuns.length} runs\n`,
  );
  console.log(
    "scenario".padEnd(48) +
      "req/s".padStart(9) +
      "p50 ms".padStart(9) +
      "p99 ms".padStart(9) +
      "floor req/s".padStart(13) +
      "  of floor" +
      "  non-2xx",
  );
  const emptyMean = { ...emptyRuns[0]!, rps: emptyRates.reduce((sum, rps) => sum + rps, 0) / emptyRates.length };
  for (const row of [{ ...emptyMean, floor: null }, { ...writeFloorRun, floor: null }, ...rows]) {
    console.log(
      (row.name === EMPTY_ROUTE && emptyRuns.length > 1 ? `${EMPTY_ROUTE}, mean` : row.name).padEnd(48) +
        row.rps.toFixed(0).padStart(9) +
        String(row.p50).padStart(9) +
        String(row.p99).padStart(9) +
        (row.floor === null ? "" : row.floor.toFixed(0)).padStart(13) +
        (row.floor === null ? "" : `${((row.rps / row.floor) * 100).toFixed(0)} %`).padStart(10) +
        String(row.non2xx + row.errors).padStart(9),
    );
  }

  // CPU a request: what the machine's speed moves least, as the empty route's own moves with it.
  const meanOf = (values: (number | null)[]) =>
    values.includes(null) ? null : (values as number[]).reduce((sum, v) => sum + v, 0) / values.length;
  const emptyCpu = meanOf(emptyRuns.map((run) => (run.appCpuMs ?? 0) + (run.postgresCpuMs ?? 0)));
  const ms = (value: number | null) => (value === null ? "?" : value.toFixed(2));
  console.log(
    `\nCPU a request, ms, from a timed run's start to the end of the workflows it started; the empty route's: ${ms(emptyCpu)} (mean of its runs)`,
  );
  console.log(
    "scenario".padEnd(48) + "app".padStart(9) + "PostgreSQL".padStart(12) + "total".padStart(9) + "  ÷ empty route's",
  );
  for (const row of [writeFloorRun, ...rows]) {
    const total = row.postgresCpuMs === null ? null : (row.appCpuMs ?? 0) + row.postgresCpuMs;
    console.log(
      row.name.padEnd(48) +
        (row.appCpuMs === null ? "" : ms(row.appCpuMs)).padStart(9) +
        ms(row.postgresCpuMs).padStart(12) +
        ms(total).padStart(9) +
        (total === null || !emptyCpu ? "" : `${(total / emptyCpu).toFixed(1)}×`).padStart(17),
    );
  }

  // Per-stage profile: one request at a time, so the times are the work, not queueing. Each answer's
  // Request-Id pairs the client's time with the app's log line.
  console.log(
    `\nper-stage profile, one request at a time, ${PROFILE_REQUESTS} requests per route, mean ms per request`,
  );
  console.log(
    "route".padEnd(30) +
      "client".padStart(9) +
      "framework".padStart(11) +
      "auth+limit".padStart(12) +
      "input".padStart(8) +
      "handler".padStart(9) +
      "answer".padStart(8),
  );
  for (const { name, base, method, make } of chosen.filter(
    ({ name }) => name === EMPTY_ROUTE || name.includes("/v1/"),
  )) {
    const logOffset = statSync(appLog).size;
    const clientMs = new Map<string, number>();
    const emptyRouteMs: number[] = [];
    const agent = new Agent({ keepAlive: true, maxSockets: 1 }); // one connection per route, kept alive
    for (let i = 0; i < PROFILE_WARMING + PROFILE_REQUESTS; i++) {
      const { path: requestPath, headers, body } = make(next());
      const started = performance.now();
      const requestId = await send(agent, base + requestPath, method, headers, body);
      const ms = performance.now() - started;
      if (i < PROFILE_WARMING) continue;
      if (name === EMPTY_ROUTE) emptyRouteMs.push(ms);
      else clientMs.set(requestId!, ms);
    }
    agent.destroy();
    await settle(database.url);
    const lines = requestLinesFrom(logOffset).filter((line) => clientMs.has(line.request_id));
    const mean = (pick: (line: RequestLine) => number) =>
      lines.reduce((sum, line) => sum + pick(line), 0) / Math.max(lines.length, 1);
    const columns =
      name === EMPTY_ROUTE
        ? [emptyRouteMs.reduce((sum, ms) => sum + ms, 0) / emptyRouteMs.length]
        : [
            mean((line) => clientMs.get(line.request_id)!),
            mean((line) => clientMs.get(line.request_id)! - line.duration_ms),
            mean((line) => line.stages_ms.authenticate ?? 0),
            mean((line) => line.stages_ms.input ?? 0),
            mean((line) => line.stages_ms.handler ?? 0),
            mean((line) => line.duration_ms - Object.values(line.stages_ms).reduce((sum, ms) => sum + ms, 0)),
          ];
    const widths = [9, 11, 12, 8, 9, 8];
    console.log(name.slice(0, 29).padEnd(30) + columns.map((ms, i) => ms.toFixed(2).padStart(widths[i]!)).join(""));
  }
} finally {
  for (const child of children)
    if (child.pid)
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

async function seedWorkspace(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const workspaceId = newId("ws");
  const brandId = newId("br");
  const topicId = newId("tp");
  await sql`insert into workspaces (id, name) values (${workspaceId}, 'Bench')`;
  await sql`insert into workspace_billing (workspace_id, stage, stage_entered_at, send_allowance, period_started_at) values (${workspaceId}, 'active', now(), 100000, now())`;
  await sql`insert into brands (id, workspace_id, name, legal_name, postal_address, website_url, sender_email) values (${brandId}, ${workspaceId}, 'Bench', 'Bench Ltd', '1 Way', 'https://bench.example', 'news@bench.example')`;
  await sql`insert into topics (id, workspace_id, brand_id, name) values (${topicId}, ${workspaceId}, ${brandId}, 'News')`;
  for (let start = 0; start < CONTACTS; start += 5000) {
    const batch = Array.from({ length: 5000 }, (_, i) => ({
      id: newId("ct"),
      workspace_id: workspaceId,
      email: `seed${start + i}@bench.example`,
      first_name: "Seed",
    }));
    await sql`insert into contacts ${sql(batch)}`;
  }
  const keys = (kind: "secret" | "publishable") => Array.from({ length: KEYS }, () => generateKey(kind, "live"));
  const secretKeys = keys("secret");
  const publishableKeys = keys("publishable");
  const keyRows = [...secretKeys, ...publishableKeys].map((key) => ({
    id: newId("key"),
    workspace_id: workspaceId,
    kind: key.startsWith("sk_") ? "secret" : "publishable",
    environment: "live",
    key_hash: hashKey(key),
    display_prefix: key.slice(0, 8),
    last4: key.slice(-4),
  }));
  for (let i = 0; i < keyRows.length; i += 1000) await sql`insert into api_keys ${sql(keyRows.slice(i, i + 1000))}`;
  await sql`analyze`;
  await sql.end();
  return { workspaceId, topicId, secretKeys, publishableKeys };
}

interface Scenario {
  name: string;
  base: string;
  method: "GET" | "POST";
  /** The i-th request: a new address each time, keys in turn. */
  make: (i: number) => { path: string; headers?: Record<string, string>; body?: string };
}

/** One request over the agent's kept-alive connection; resolves with the answer's Request-Id once its body is read. */
function send(
  agent: Agent,
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        agent,
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.headers["request-id"] as string | undefined));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

interface RequestLine {
  request_id: string;
  duration_ms: number;
  stages_ms: Record<string, number>;
}

/**
 * Waits until no workflow run is due or running (the background work a scenario started is done),
 * then checkpoints: the writes of one scenario must not be flushed during the next one's time.
 */
/** Waits for the workflows started so far to end (then calls `ended`), and writes out what they changed (a checkpoint). */
async function settle(url: string, ended?: () => void | Promise<void>) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await waitForRuns(sql);
    await ended?.();
    await sql`checkpoint`;
  } finally {
    await sql.end();
  }
}

async function waitForRuns(sql: postgres.Sql) {
  for (let i = 0; i < 600; i++) {
    const [row] = await sql<
      { busy: number }[]
    >`select count(*)::int as busy from workflow_runs where status = 'pending' and (wake_at <= now() or lease_until > now())`;
    if (row!.busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function waitFor(url: string, method = "GET", body?: string) {
  for (let i = 0; i < 300; i++) {
    try {
      const response = await fetch(url, { method, body, headers: body ? { "content-type": "application/json" } : {} });
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up`);
}
