import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { pruneExpired } from "@/lib/retention/prune-expired";

/** Daily: what has served its purpose is deleted (see lib/retention/prune-expired.ts for what and when). */
export const pruneExpiredFunction = inngest.createFunction(
  { id: "prune-expired", triggers: [{ cron: "15 3 * * *" }], retries: 2 },
  async ({ step }) => step.run("prune", () => pruneExpired(workflowCtx())),
);
