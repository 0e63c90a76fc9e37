import { inngest } from "@/inngest/client";
import { providerEventReceived } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { applyProviderEvent } from "@/lib/deliverability/apply-provider-event";

const RETRIES = 5;

/** Applies a stored provider report (a bounce, a complaint, a delivery), retried until it is. */
export const applyProviderEventFunction = inngest.createFunction(
  { id: "apply-provider-event", triggers: [providerEventReceived], retries: RETRIES },
  async ({ event, step, attempt }) =>
    step.run(
      "apply",
      async () =>
        (await applyProviderEvent(workflowCtx(), event.data.providerEventId, { lastAttempt: attempt >= RETRIES }))
          .state,
    ),
);
