import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { pruneImports } from "@/lib/retention/prune-imports";

/** Hourly: finished imports lose their files and staged rows, and their refused rows once old (lib/retention/prune-imports.ts). */
export const pruneImportsFunction = inngest.createFunction(
  { id: "prune-imports", triggers: [{ cron: "40 * * * *" }], retries: 2 },
  async ({ step }) => step.run("prune", () => pruneImports(workflowCtx())),
);
