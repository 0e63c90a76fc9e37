import { inngest } from "@/inngest/client";
import { subscriptionConfirmed } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { sendWelcomeMail } from "@/lib/consent/send-welcome-mail";
import { getMailTransport } from "@/lib/mail/get-mail-transport";

/** The "you're subscribed" mail after a confirmed double opt-in. */
export const welcome = inngest.createFunction(
  { id: "welcome", triggers: [subscriptionConfirmed], retries: 5 },
  async ({ event, step }) =>
    step.run("send-welcome", () => sendWelcomeMail(workflowCtx(), getMailTransport(), event.data.subscriptionId)),
);
