// A separate worker process running every workflow, as the app runs them: the crash tests kill it
// mid-run (a dispatch, an import) with SIGKILL, and the shutdown tests stop it with SIGTERM.
import { functions } from "@/inngest";
import { inngest } from "@/inngest/client";
import { connectWorkflowEvents } from "@/inngest/emit";
import { defaultCtx } from "@/lib/context";
import { closeDb } from "@/lib/db/client";

import { createEmbeddedExecutor } from "../executor";
import { setRunningExecutor, stopRunningExecutor } from "../running-executor";

connectWorkflowEvents();
const executor = createEmbeddedExecutor({ client: inngest, functions, leaseMs: 1000 });
setRunningExecutor(executor);
// What scripts/serve.ts does on SIGTERM: the runs in hand finish their step and are handed back.
// Listening before the first run is claimed, so no signal finds the worker without it.
process.on("SIGTERM", () => {
  void stopRunningExecutor()
    .then(() => closeDb())
    .then(() => process.exit(0));
});
await executor.start(defaultCtx(), 100);
// The executor's poll timer does not keep the process alive on its own.
setInterval(() => {}, 60_000);
