import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { recheckSendingDomains } from "@/lib/domains/recheck-sending-domains";

/** Daily: every domain's records are looked up again; one whose records disappeared is flagged records_missing. */
export const recheckDomainsFunction = inngest.createFunction(
  { id: "recheck-domains", triggers: [{ cron: "30 4 * * *" }], retries: 2 },
  async ({ step }) => step.run("recheck", () => recheckSendingDomains(workflowCtx())),
);
