// One app instance as instrumentation.ts starts it (inngest/start.ts): the embedded executor with every
// workflow, WORKFLOW_WORKERS runs at once, polling on its timer, crons scheduled, the default lease.
// The two-instance test runs two of these on one database; the test's own crons ride along.
import { functions } from "@/inngest";
import { inngest, routeEmbeddedEvents } from "@/inngest/client";
import { connectWorkflowEvents } from "@/inngest/emit";
import { defaultCtx } from "@/lib/context";
import { env } from "@/lib/env";

import { createEmbeddedExecutor } from "../executor";
import { instanceCrons } from "./instance-crons";

connectWorkflowEvents();
const executor = createEmbeddedExecutor({
  client: inngest,
  functions: [...functions, ...instanceCrons],
  workers: env().WORKFLOW_WORKERS,
});
routeEmbeddedEvents((events) => executor.enqueue(defaultCtx(), events));
await executor.start(defaultCtx(), Number(process.env.INSTANCE_POLL_MS ?? 250));
// The executor's timer is unref'd (it must not hold a server open); here it is all the process does.
setInterval(() => {}, 60_000);
process.stdout.write(`${JSON.stringify({ msg: "instance ready", instance: process.env.INSTANCE_NAME })}\n`);
