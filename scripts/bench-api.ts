// npm run bench:api — throughput and latency of the /v1 routes on the built app with an embedded
// database of 100,000 contacts, next to an empty Next.js route (the framework's floor) and a bare
// Node server doing the same single query (the ceiling). Many keys, so rate limits never bind.
// Options: --duration SECONDS (default 10), --connections N (default 32), --no-build,
// --only TEXT (scenarios whose name contains it, plus the floor), --profile DIR (CPU profiles of the app).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import { generateKey, hashKey } from "@/lib/api-keys/key-format";
import { openDatabase } from "@/lib/db/database";
import { newId } from "@/lib/ids";

const { values: options } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    "no-build": { type: "boolean" },
    only: { type: "string" },
    profile: { type: "string" },
  },
});
const duration = Number(options.duration);
const connections = Number(options.connections);
const CONTACTS = 100_000;
const KEYS = 1500;
const APP_PORT = 3301;
const CEILING_PORT = 3302;

const dataDir = path.resolve(".data", `bench-api-${Date.now()}`);
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;

if (!options["no-build"]) {
  console.log("building…");
  if (spawnSync("npx", ["next", "build"], { stdio: "ignore" }).status !== 0) throw new Error("next build failed");
}

const database = await openDatabase();
const children: ChildProcess[] = [];
try {
  const seed = await seedWorkspace(database.url);
  const env = { ...process.env, DATABASE_URL: database.url, NODE_ENV: "production" as const, BENCH_WORKSPACE_ID: seed.workspaceId };
  const profiling = options.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(options.profile)}`] : [];
  children.push(spawn(process.execPath, [...profiling, "node_modules/next/dist/bin/next", "start", "-p", String(APP_PORT)], { env, stdio: "ignore", detached: true }));
  children.push(spawn("npx", ["tsx", "scripts/bench/ceiling-server.ts"], { env: { ...env, PORT: String(CEILING_PORT) }, stdio: "ignore", detached: true }));
  await waitFor(`http://127.0.0.1:${APP_PORT}/api/health`);
  await waitFor(`http://127.0.0.1:${CEILING_PORT}/`, "POST", '{"email":"warm@example.com"}');

  let n = 0;
  const next = () => n++;
  const secret = (i: number) => seed.secretKeys[i % seed.secretKeys.length]!;
  const publishable = (i: number) => seed.publishableKeys[i % seed.publishableKeys.length]!;
  const app = `http://127.0.0.1:${APP_PORT}`;
  const ceiling = `http://127.0.0.1:${CEILING_PORT}`;

  const scenarios: [string, string, autocannon.Request][] = [
    ["empty Next.js route (floor)", `${app}/api/health`, { method: "GET" }],
    [
      "POST /v1/subscribe",
      `${app}/v1/subscribe`,
      {
        method: "POST",
        setupRequest: (r) => {
          const i = next();
          return {
            ...r,
            path: "/v1/subscribe",
            headers: { authorization: `Bearer ${publishable(i)}`, "content-type": "application/json" },
            body: JSON.stringify({ topic_id: seed.topicId, email: `form${i}@bench.example` }),
          };
        },
      },
    ],
    [
      "POST /v1/contacts",
      `${app}/v1/contacts`,
      {
        method: "POST",
        setupRequest: (r) => {
          const i = next();
          return {
            ...r,
            path: "/v1/contacts",
            headers: { authorization: `Bearer ${secret(i)}`, "content-type": "application/json" },
            body: JSON.stringify({ email: `api${i}@bench.example`, first_name: "Bench" }),
          };
        },
      },
    ],
    [
      "GET /v1/contacts?limit=100",
      `${app}/v1/contacts?limit=100`,
      { method: "GET", setupRequest: (r) => ({ ...r, path: "/v1/contacts?limit=100", headers: { authorization: `Bearer ${secret(next())}` } }) },
    ],
    [
      "bare Node: upsert contact (ceiling)",
      `${ceiling}/`,
      { method: "POST", setupRequest: (r) => ({ ...r, path: "/", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `bare${next()}@bench.example` }) }) },
    ],
    ["bare Node: 100 newest contacts (ceiling)", `${ceiling}/`, { method: "GET" }],
  ];

  const rows = [];
  for (const [name, url, request] of scenarios.filter(([name], i) => i === 0 || !options.only || name.includes(options.only))) {
    await autocannon({ url, connections, duration: 2, requests: [request] }); // warm-up
    const result = await autocannon({ url, connections, duration, requests: [request] });
    rows.push({ name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors });
  }
  const floor = rows[0]!.rps;
  console.log(
    `\n${CONTACTS.toLocaleString("en")} contacts, ${KEYS} keys of each kind, ${connections} connections, ${duration} s per scenario, ${process.env.DATABASE_POOL_SIZE || 10} database connections per process\n`,
  );
  console.log("scenario".padEnd(44) + "req/s".padStart(9) + "p50 ms".padStart(9) + "p99 ms".padStart(9) + "  of floor" + "  non-2xx");
  for (const row of rows) {
    console.log(
      row.name.padEnd(44) +
        row.rps.toFixed(0).padStart(9) +
        String(row.p50).padStart(9) +
        String(row.p99).padStart(9) +
        `${((row.rps / floor) * 100).toFixed(0)} %`.padStart(10) +
        String(row.non2xx + row.errors).padStart(9),
    );
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
    const batch = Array.from({ length: 5000 }, (_, i) => ({ id: newId("ct"), workspace_id: workspaceId, email: `seed${start + i}@bench.example`, first_name: "Seed" }));
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
