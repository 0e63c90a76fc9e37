import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { wakeOverdueEndpoints } from "@/lib/webhooks/request-delivery";

/** Every five minutes: endpoints with deliveries left overdue get a delivery run again. */
export const webhookSweep = inngest.createFunction(
  { id: "webhook-sweep", triggers: [{ cron: "*/5 * * * *" }], retries: 2 },
  async ({ step }) => step.run("wake-overdue", () => wakeOverdueEndpoints(workflowCtx())),
);
