import { defaultCtx } from "@/lib/context";
import { env } from "@/lib/env";
import { workflowsAreEmbedded } from "@/lib/runtime/workflow-mode";

import { inngest, routeEmbeddedEvents } from "./client";
import { createEmbeddedExecutor } from "./embedded/executor";
import { setRunningExecutor } from "./embedded/running-executor";
import { functions } from "./index";

/** In the app process: start the embedded executor unless an Inngest server runs the workflows. */
export async function startWorkflows(): Promise<void> {
  if (!workflowsAreEmbedded()) return;
  const executor = createEmbeddedExecutor({ client: inngest, functions, workers: env().WORKFLOW_WORKERS });
  routeEmbeddedEvents((events) => executor.enqueue(defaultCtx(), events));
  await executor.start(defaultCtx());
  setRunningExecutor(executor);
}
