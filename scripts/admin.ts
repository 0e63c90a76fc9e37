// The admin CLI: `npm run -s admin -- <command> [options] [--json]`. See `npm run -s admin -- help`.
import { connectWorkflowEvents } from "@/inngest/emit";
import { defaultCtx } from "@/lib/context";
import { closeDb } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/database";
import { sendLogsTo } from "@/lib/log/logger";

import { runAdmin } from "./admin/run-admin";

// Commands start workflows as the app does (approving a workspace resumes its held campaigns).
connectWorkflowEvents();
// stdout is the command's result (operators parse --json): any log line of the code it runs goes to stderr.
sendLogsTo(2);

const result = await runAdmin(process.argv.slice(2), async (fn) => {
  const database = await openDatabase();
  try {
    return await fn(defaultCtx());
  } finally {
    await closeDb();
    await database.close();
  }
});
process.stdout.write(result.stdout);
// A failure exits at once with its code (the embedded database's exit hooks would otherwise end it with 0);
// a success lets stdout drain, however long the JSON.
if (result.code !== 0) {
  process.stderr.write(result.stderr, () => process.exit(result.code));
}
