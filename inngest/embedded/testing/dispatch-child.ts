// A separate worker process dispatching campaigns; the dispatch crash test kills it mid-send.
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest";
import { defaultCtx } from "@/lib/context";
import { createEmbeddedExecutor } from "../executor";

const executor = createEmbeddedExecutor({ client: inngest, functions, leaseMs: 1000 });
for (;;) {
  await executor.runDue(defaultCtx());
  await new Promise((resolve) => setTimeout(resolve, 100));
}
