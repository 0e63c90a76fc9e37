// A separate worker process running every workflow; the crash tests kill it mid-run (a dispatch, an import).
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest";
import { defaultCtx } from "@/lib/context";
import { createEmbeddedExecutor } from "../executor";

const executor = createEmbeddedExecutor({ client: inngest, functions, leaseMs: 1000 });
for (;;) {
  await executor.runDue(defaultCtx());
  await new Promise((resolve) => setTimeout(resolve, 100));
}
