import { inngest } from "@/inngest/client";
import { confirmationRequested } from "@/inngest/events";
import { decideConfirmation } from "@/lib/consent/decide-confirmation";
import { sendConfirmationMail } from "@/lib/consent/send-confirmation-mail";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { getMailTransport } from "@/lib/mail/get-mail-transport";

/** Sends the double opt-in mail from the topic's brand, unless a de-duplication window says not to. */
export const confirmation = inngest.createFunction({ id: "confirmation", triggers: [confirmationRequested], retries: 5 }, async ({ event, step }) => {
  const decision = await step.run("decide", () => decideConfirmation(workflowCtx(), event.data.requestId));
  if (!decision.send) return decision;
  await step.run("send-confirmation", () => sendConfirmationMail(workflowCtx(), getMailTransport(), event.data.requestId));
  return decision;
});
