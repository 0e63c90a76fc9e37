import { inngest } from "@/inngest/client";
import { webhookEndpointDue } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { deliverDue } from "@/lib/webhooks/deliver-due";
import { requestDelivery } from "@/lib/webhooks/request-delivery";

/**
 * Steps (of up to 5 s each) one run takes before handing over to a new one: its saved progress stays
 * small, and the new run queues behind other endpoints' runs, so a busy endpoint cannot keep a worker.
 */
const MAX_ROUNDS = 12;

/**
 * One endpoint's deliveries: reads what is due in batches, posts each batch
 * over kept connections and records every attempt, until nothing is due; a
 * retry due later asks for a run at its time. One run per endpoint at a time
 * (the concurrency key, and the endpoint's lease should a run be taken over
 * while it still posts), so one contact's events reach it in order, and a
 * slow endpoint holds up only its own run.
 */
export const webhookDelivery = inngest.createFunction(
  {
    id: "webhook-endpoint-delivery",
    triggers: [webhookEndpointDue],
    concurrency: { key: "event.data.endpointId", limit: 1 },
    retries: 3,
  },
  async ({ event, step }) => {
    const { endpointId } = event.data;
    const total = { succeeded: 0, failed: 0 };
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const outcome = await step.run(`deliver-${round}`, () => deliverDue(workflowCtx(), endpointId));
      total.succeeded += outcome.succeeded;
      total.failed += outcome.failed;
      if (!outcome.more) return { ...total, stopped: outcome.stopped ?? "nothing_due" };
    }
    await step.run("hand-over", () => requestDelivery(workflowCtx(), [endpointId]));
    return { ...total, stopped: "handed_over" };
  },
);
