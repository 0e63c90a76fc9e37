import { inngest } from "@/inngest/client";
import { campaignDispatchRequested } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { startScheduledCampaign } from "@/lib/campaigns/campaign-actions";
import { classifyCampaignDomains } from "@/lib/campaigns/classify-campaign-domains";
import { completeCampaign } from "@/lib/campaigns/complete-campaign";
import { sendNextBatch, type BatchResult } from "@/lib/campaigns/send-batch";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { checkWarmUpAllowance } from "@/lib/campaigns/warm-up-wait";
import { guardCampaign } from "@/lib/deliverability/guard-campaign";
import { env } from "@/lib/env";
import { getMailTransport } from "@/lib/mail/get-mail-transport";

/** Recipients per batch and the pause between batches: the provider's throttle (configuration). */
const batchSize = () => env().DISPATCH_BATCH_SIZE;
const batchPauseMs = () => env().DISPATCH_BATCH_PAUSE_MS;

/**
 * Waits for the scheduled time, snapshots the audience into sends, then
 * sends batch after batch, checking between batches whether the campaign was
 * paused or cancelled and what its domain's warm-up still allows today, and
 * finally records campaign.sent.
 */
export const dispatchCampaign = inngest.createFunction(
  { id: "dispatch-campaign", triggers: [campaignDispatchRequested], retries: 5 },
  async ({ event, step, runId }) => {
    const { campaignId, at } = event.data;
    if (at) {
      await step.sleepUntil("wait-for-schedule", at);
      const due = await step.run("start-if-still-scheduled", () =>
        startScheduledCampaign(workflowCtx(), campaignId, new Date(at)),
      );
      if (!due) return { stopped: "unscheduled" };
    }
    // The largest recipient domains' mailbox providers, from MX (cached), before the snapshot records each send's.
    await step.run("classify-recipient-domains", () => classifyCampaignDomains(workflowCtx(), campaignId));
    const snapshot = await step.run("snapshot-audience", () => snapshotAudience(workflowCtx(), campaignId));
    if (snapshot.status !== "sending") return { stopped: snapshot.status };
    // Each batch starts after the last send the previous one took: a walk along the campaign's key range.
    let after: string | null = null;
    for (let batch = 0; ; batch++) {
      const from = after;
      // A domain in warm-up sends its day's cap, then the campaign sleeps until the next UTC day and goes on.
      const warmUp = await step.run(`warm-up-allowance-${batch}`, () =>
        checkWarmUpAllowance(workflowCtx(), campaignId),
      );
      if (warmUp.waitUntil) {
        await step.sleepUntil(`warm-up-wait-${batch}`, warmUp.waitUntil);
        continue;
      }
      const result: BatchResult = await step.run(`batch-${batch}`, () =>
        sendNextBatch(workflowCtx(), getMailTransport(), {
          campaignId,
          size: Math.min(batchSize(), warmUp.allowance ?? Infinity),
          claimant: runId,
          after: from,
        }),
      );
      if (result.stopped) return { stopped: result.stopped };
      // The guardrail (guard-campaign.ts): a pause it makes is found by the next batch's claim.
      if (result.sent > 0) await step.run(`guardrail-${batch}`, () => guardCampaign(workflowCtx(), campaignId));
      if (result.next === null) {
        // Sends wait for their provider's pace or their retry after a temporary refusal: sleep until the first may go.
        if (result.wakeAt) await step.sleepUntil(`wait-for-pace-${batch}`, result.wakeAt);
        else if (!result.heldElsewhere) break;
        // Another run holds sends: wait for its batch to finish, or for its claim to be abandoned and
        // taken over, then walk the campaign again from the start. Completing now could leave them unsent.
        else await step.sleep(`wait-for-claimed-${batch}`, "1m");
      }
      after = result.next;
      if (batchPauseMs() > 0) await step.sleep(`throttle-${batch}`, `${batchPauseMs()}ms`);
    }
    return step.run("complete", () => completeCampaign(workflowCtx(), campaignId));
  },
);
