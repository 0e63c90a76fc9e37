// A separate process running the embedded executor; the crash test kills it mid-run.
import { inngest } from "@/inngest/client";
import { defaultCtx } from "@/lib/context";

import { createEmbeddedExecutor } from "../executor";
import { crashFunction } from "./crash-function";

const executor = createEmbeddedExecutor({ client: inngest, functions: [crashFunction], leaseMs: 1000 });
await executor.runDue(defaultCtx());
