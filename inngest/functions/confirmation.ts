import { inngest } from "@/inngest/client";
import { confirmationRequested } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { decideAndSendConfirmation } from "@/lib/consent/send-confirmation-mail";
import { getMailTransport } from "@/lib/mail/get-mail-transport";

/**
 * Sends the double opt-in mail from the topic's brand, unless a de-duplication window says not to.
 * One step: the decision is recorded before the mail goes out, so a retried step decides the same
 * again and sends with the same idempotency key. A step of its own for the decision would only add a
 * round of the workflow to every signup.
 */
export const confirmation = inngest.createFunction(
  { id: "confirmation", triggers: [confirmationRequested], retries: 5 },
  async ({ event, step }) =>
    step.run("decide-and-send", () =>
      decideAndSendConfirmation(workflowCtx(), getMailTransport(), event.data.requestId),
    ),
);
