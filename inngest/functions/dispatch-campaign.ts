import { inngest } from "@/inngest/client";
import { campaignDispatchRequested } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { assignAbVariants, holdForAbWinner } from "@/lib/campaigns/ab-test-dispatch";
import { startScheduledCampaign } from "@/lib/campaigns/campaign-actions";
import { classifyCampaignDomains } from "@/lib/campaigns/classify-campaign-domains";
import { completeCampaign } from "@/lib/campaigns/complete-campaign";
import { dispatchBatch, type DispatchBatchResult } from "@/lib/campaigns/dispatch-batch";
import { snapshotAudience } from "@/lib/campaigns/snapshot-audience";
import { env } from "@/lib/env";
import { getMailTransport } from "@/lib/mail/get-mail-transport";

/** Recipients per batch and the pause between batches: the provider's throttle (configuration). */
const batchSize = () => env().DISPATCH_BATCH_SIZE;
const batchPauseMs = () => env().DISPATCH_BATCH_PAUSE_MS;

/**
 * Waits for the scheduled time, snapshots the audience into sends, then
 * sends batch after batch, checking before each whether the guardrail or a
 * person paused or cancelled the campaign and what its domain's warm-up still
 * allows today, and finally records campaign.sent.
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
    // An A/B test's share gets its variants; the rest wait for the winner (ab-test-dispatch.ts).
    await step.run("assign-ab-variants", () => assignAbVariants(workflowCtx(), campaignId));
    // Each batch starts after the last send the previous one took: a walk along the campaign's key range.
    let after: string | null = null;
    let guard = false;
    for (let batch = 0; ; batch++) {
      const from = after;
      // The guardrail on the previous batch's mail, the domain's warm-up cap, then the batch (dispatch-batch.ts).
      const result: DispatchBatchResult = await step.run(`batch-${batch}`, () =>
        dispatchBatch(workflowCtx(), getMailTransport(), {
          campaignId,
          size: batchSize(),
          claimant: runId,
          after: from,
          guard,
        }),
      );
      if (result.stopped) return { stopped: result.stopped };
      // A domain in warm-up sends its day's cap, then the campaign sleeps until the next UTC day and goes on.
      if (result.warmUpUntil) {
        await step.sleepUntil(`warm-up-wait-${batch}`, result.warmUpUntil);
        continue;
      }
      guard = result.sent > 0;
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
    const abTest = await step.run("hold-for-ab-winner", () => holdForAbWinner(workflowCtx(), campaignId));
    if (abTest.waiting) return { stopped: "ab_test_waiting" };
    return step.run("complete", () => completeCampaign(workflowCtx(), campaignId));
  },
);
