// npm run chaos:automations — issue 54's chaos figure: on a fresh database (embedded, or a new one on
// the server of DATABASE_URL), 10,000 people enter a three-mail automation with waits of an hour and a
// day; a worker process walks their runs on a clock this script moves, and is SIGKILLed 10 times at
// random points of the progress and restarted. Prints the kills, where they landed, the messages in the
// mailbox (the local transport's), duplicates, people missing a mail, people whose mails came out of order.
// Options: --people N (default 10000), --kills N (default 10), --workers N (default WORKFLOW_WORKERS, else 32 as
// the app), --seed N.
import { parseArgs } from "node:util";

import { freshBenchDatabase } from "./bench/bench-database";

const { values: options } = parseArgs({
  options: {
    people: { type: "string", default: "10000" },
    kills: { type: "string", default: "10" },
    workers: { type: "string", default: process.env.WORKFLOW_WORKERS || "32" },
    seed: { type: "string" },
  },
});
const seed = options.seed ? Number(options.seed) : Date.now() % 1_000_000;

const benchDatabase = await freshBenchDatabase("chaos-automations");
// A log line per workflow step would bury the figures: only warnings and errors, unless LOG_LEVEL says.
process.env.LOG_LEVEL ||= "warn";

// Imported after the environment is set: the pool reads it.
const { openDatabase } = await import("@/lib/db/database");
const { defaultCtx } = await import("@/lib/context");
const { closeDb } = await import("@/lib/db/client");
const { runAutomationChaos } = await import("@/lib/testing/automation-chaos");
const { seededRandom } = await import("@/lib/testing/dispatch-chaos");
const { connectWorkflowEvents } = await import("@/inngest/emit");

// Entering people emits their runs' events: they are written in this process, run by the workers.
connectWorkflowEvents();
const database = await openDatabase();
let failed = false;
try {
  const people = Number(options.people);
  console.log(
    `chaos:automations seed ${seed}: ${people.toLocaleString("en")} people, ${options.kills} kills, ${options.workers} workers`,
  );
  const result = await runAutomationChaos(defaultCtx(), {
    people,
    kills: Number(options.kills),
    workers: Number(options.workers),
    random: seededRandom(seed),
    log: (line) => console.log(`  ${line}`),
  });
  console.log(
    `kills: ${result.kills} (${Object.entries(result.phases)
      .map(([phase, n]) => `${phase} ${n}`)
      .join(", ")})`,
  );
  console.log(
    `people: ${result.people.toLocaleString("en")}, messages: ${result.messages.toLocaleString("en")}, duplicates: ${result.duplicates}, lost: ${result.lost}, out of order: ${result.outOfOrder}, entries completed: ${result.completed.toLocaleString("en")}`,
  );
  console.log(`in ${(result.ms / 1000).toFixed(1)} s`);
  failed =
    result.duplicates > 0 ||
    result.lost > 0 ||
    result.outOfOrder > 0 ||
    result.messages !== people * 3 ||
    result.completed !== people;
} finally {
  await closeDb();
  await database.close();
  await benchDatabase.remove();
}
process.exit(failed ? 1 : 0);
