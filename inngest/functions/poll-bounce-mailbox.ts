import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { pollBounceMailbox } from "@/lib/deliverability/poll-bounce-mailbox";
import { env } from "@/lib/env";

/** Every minute, when BOUNCE_IMAP_URL names a bounce mailbox: its messages become provider reports. */
export const pollBounceMailboxFunction = inngest.createFunction(
  { id: "poll-bounce-mailbox", triggers: [{ cron: "* * * * *" }], retries: 2 },
  async ({ step }) => {
    const url = env().BOUNCE_IMAP_URL;
    if (!url) return { read: 0, configured: false };
    return step.run("poll", () => pollBounceMailbox(workflowCtx(), url));
  },
);
