// npm run chaos:dispatch — on a fresh embedded database (or DATABASE_URL): a campaign to 100,000
// recipients through the local transport, its worker process SIGKILLed at 20 random points (during
// the snapshot, batches, a pause and a resume) and restarted each time. Prints the kills, where they
// landed, messages, duplicates, lost recipients and every counter that differs from its recount.
// Options: --recipients N (default 100000), --kills N (default 20), --batch N (default 500), --seed N.
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const { values: options } = parseArgs({
  options: {
    recipients: { type: "string", default: "100000" },
    kills: { type: "string", default: "20" },
    batch: { type: "string", default: "500" },
    seed: { type: "string" },
  },
});
const seed = options.seed ? Number(options.seed) : Date.now() % 1_000_000;

const dataDir = path.resolve(".data", `chaos-dispatch-${Date.now()}`);
const embedded = !process.env.DATABASE_URL;
if (embedded) process.env.DATA_DIR = dataDir;
process.env.MAIL_TRANSPORT = "local";
// A log line per request or workflow step would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";

const { openDatabase } = await import("@/lib/db/database");
const { defaultCtx } = await import("@/lib/context");
const { closeDb } = await import("@/lib/db/client");
const { runDispatchChaos, seededRandom } = await import("@/lib/testing/dispatch-chaos");
const { inngest, routeEmbeddedEvents } = await import("@/inngest/client");
const { createEmbeddedExecutor } = await import("@/inngest/embedded/executor");
const { functions } = await import("@/inngest");
const { connectWorkflowEvents } = await import("@/inngest/emit");

connectWorkflowEvents();
const database = await openDatabase();
const ctx = defaultCtx();
// This process only queues the runs its actions start; the worker processes run them.
const queue = createEmbeddedExecutor({ client: inngest, functions });
routeEmbeddedEvents((events) => queue.enqueue(ctx, events));
let failed = false;
try {
  console.log(
    `chaos:dispatch seed ${seed}: ${Number(options.recipients).toLocaleString("en")} recipients, ${options.kills} kills, batches of ${options.batch}`,
  );
  const result = await runDispatchChaos(ctx, {
    recipients: Number(options.recipients),
    kills: Number(options.kills),
    batchSize: Number(options.batch),
    random: seededRandom(seed),
    log: (line) => console.log(`  ${line}`),
  });
  console.log(
    `kills: ${result.kills} (${Object.entries(result.phases)
      .map(([phase, n]) => `${phase} ${n}`)
      .join(", ")})`,
  );
  console.log(
    `recipients: ${result.recipients.toLocaleString("en")}, messages: ${result.messages.toLocaleString("en")}, duplicates: ${result.duplicates}, lost: ${result.lost}`,
  );
  console.log(
    `counters differing from their recount: ${result.mismatches.length === 0 ? "none" : result.mismatches.join("; ")}`,
  );
  console.log(`in ${(result.ms / 1000).toFixed(1)} s`);
  failed = result.duplicates > 0 || result.lost > 0 || result.mismatches.length > 0;
} finally {
  await closeDb();
  await database.close();
  if (embedded) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
