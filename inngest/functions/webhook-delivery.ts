import { inngest } from "@/inngest/client";
import { webhookDeliveryRequested } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { attemptDelivery } from "@/lib/webhooks/attempt-delivery";
import { MAX_ATTEMPTS } from "@/lib/webhooks/retry-schedule";

/**
 * Signs and delivers one event to one endpoint, then retries on the schedule
 * (30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h, 24 h) until it succeeds or the
 * attempts run out. Deliveries sharing an order key run one at a time, so a
 * healthy endpoint gets one contact's events in the order they happened.
 */
export const webhookDelivery = inngest.createFunction(
  { id: "webhook-delivery", triggers: [webhookDeliveryRequested], concurrency: { key: "event.data.orderKey", limit: 1 }, retries: 3 },
  async ({ event, step }) => {
    const { deliveryId, generation } = event.data;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const outcome = await step.run(`attempt-${attempt}`, () => attemptDelivery(workflowCtx(), deliveryId, generation));
      if (outcome.done) return outcome;
      await step.sleepUntil(`retry-${attempt}`, outcome.retryAt);
    }
    return { done: "gave_up" };
  },
);
