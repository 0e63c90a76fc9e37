// npm run fuzz:api — sends malformed requests (10,000 by default) to every /v1 route, in process
// through the route Next.js would pick, on a fresh database (a new one on the server of DATABASE_URL
// when set, else an embedded one under .data/). Each request is built from the OpenAPI document's
// operations and schemas, valid but for one to three defects the contract says must be refused, so
// the rule is: no 5xx, every 4xx in the error shape, nothing refused changes a row (every table is
// checksummed in PostgreSQL before and after each request). Exits 1 when the rule is broken.
// Options: --runs N (10000), --seed N (fixed, so a run can be repeated), --check-every N (1).
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "10000" },
    seed: { type: "string", default: "20260105" },
    "check-every": { type: "string", default: "1" },
  },
});
const RUNS = Number(options.runs);
const SEED = Number(options.seed);
const CHECK_EVERY = Number(options["check-every"]);
// A log line per request or workflow step would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";

const serverUrl = process.env.DATABASE_URL;
const fuzzDb = `fuzz_api_${Date.now().toString(36)}`;
const dataDir = path.resolve(".data", `fuzz-api-${Date.now()}`);
if (serverUrl) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${fuzzDb}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${fuzzDb}`;
  process.env.DATABASE_URL = url.toString();
} else {
  process.env.DATA_DIR = dataDir;
}
process.env.CURSOR_SECRET ||= randomBytes(16).toString("hex");
// Faults are counted and listed below; the route's own log line for each would drown them.
console.error = () => {};

// Imported after the environment is set.
const { openDatabase } = await import("@/lib/db/database");
const { closeDb, rawClient } = await import("@/lib/db/client");
const { defaultCtx } = await import("@/lib/context");
const { seedFuzzWorld } = await import("@/lib/testing/fuzz/fuzz-world");
const { runFuzz } = await import("@/lib/testing/fuzz/run-fuzz");
const { connectWorkflowEvents } = await import("@/inngest/emit");

connectWorkflowEvents();
const database = await openDatabase();
let failed = false;
try {
  const ctx = defaultCtx();
  // Enough keys that each sees a few requests per bucket per minute: the run exercises validation, not the rate limit.
  const world = await seedFuzzWorld(ctx, Math.max(8, Math.ceil(RUNS / 50)));
  const figures = await runFuzz({
    world,
    sql: rawClient(ctx.db),
    runs: RUNS,
    seed: SEED,
    checkEvery: CHECK_EVERY,
    onProgress: (done) => done % 1000 === 0 && process.stdout.write(`  ${done.toLocaleString("en")} sent\n`),
  });
  const table = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, count]) => `    ${name.padEnd(46)}${String(count).padStart(7)}`)
      .join("\n");
  console.log(
    `\nseed ${SEED}, ${figures.seconds.toFixed(1)} s, tables checksummed around ${CHECK_EVERY === 1 ? "every request" : `every ${CHECK_EVERY}th request`}\n`,
  );
  console.log(`  requests sent              ${figures.sent}`);
  console.log(`  refused in the error shape ${figures.refused}`);
  console.log(`  OPTIONS answered (no key)  ${figures.preflights}`);
  console.log(`  5xx                        ${figures.serverErrors}`);
  console.log(`  non-conforming 4xx         ${figures.badShapes}`);
  console.log(`  malformed but accepted     ${figures.accepted}`);
  console.log(
    `  changed tables             ${figures.changedTables.length}${figures.changedTables.length ? ` (${figures.changedTables.join(", ")})` : ""}`,
  );
  console.log(`  changed row count          ${figures.rowDelta}`);
  console.log(
    `\n  by status\n${table(figures.byStatus)}\n\n  by operation\n${table(figures.byOperation)}\n\n  by defect (a request has one to three)\n${table(figures.byDefect)}`,
  );
  if (figures.breaches.length)
    console.log(
      `\nbreaches (first ${figures.breaches.length}):\n${figures.breaches.map((line) => `  ${line}`).join("\n")}`,
    );
  failed = figures.serverErrors + figures.badShapes + figures.accepted + figures.changedTables.length > 0;
} finally {
  await closeDb();
  await database.close();
  if (serverUrl) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${fuzzDb}" with (force)`);
    await admin.end();
  } else {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
