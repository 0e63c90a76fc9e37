import { inngest } from "@/inngest/client";
import { campaignAbTestWaiting } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { decideAbWinner } from "@/lib/campaigns/ab-test-winner";

/**
 * A campaign's A/B test share is sent: sleeps through the test's wait, then picks the winner by its
 * metric and lets the rest of the audience go (ab-test-winner.ts). A person who picked sooner has
 * settled it already, and the run then does nothing.
 */
export const abTestWinner = inngest.createFunction(
  { id: "ab-test-winner", triggers: [campaignAbTestWaiting], retries: 5 },
  async ({ event, step }) => {
    const { campaignId, at } = event.data;
    await step.sleepUntil("wait-for-test", at);
    return step.run("decide-winner", () => decideAbWinner(workflowCtx(), campaignId));
  },
);
