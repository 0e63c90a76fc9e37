import { inngest } from "@/inngest/client";
import { billingLadderEnded, billingLadderStarted } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { advanceLadder, finishDeletion } from "@/lib/billing/advance-ladder";
import { deleteSomeData } from "@/lib/billing/delete-workspace-data";
import { endTrials } from "@/lib/billing/end-trials";
import { startDuePeriods } from "@/lib/billing/invoices";

/**
 * One run per episode of the billing ladder: takes each due step (stage and mail), sleeps until the
 * next, and at the end deletes the workspace's data chunk by chunk. Settlement ends the episode and
 * cancels the run; every step is recorded, so a restart repeats no stage and no mail. A paused clock
 * ends the run; resuming it starts another for the same episode.
 */
export const billingLadder = inngest.createFunction(
  {
    id: "billing-ladder",
    triggers: [billingLadderStarted],
    cancelOn: [{ event: billingLadderEnded, if: "event.data.episodeId == async.data.episodeId" }],
    retries: 5,
  },
  async ({ event, step }) => {
    const { workspaceId, episodeId } = event.data;
    for (let n = 0; ; n++) {
      const progress = await step.run(`advance-${n}`, () => advanceLadder(workflowCtx(), workspaceId, episodeId));
      if ("done" in progress || "paused" in progress) return progress;
      if ("deleteData" in progress) break;
      await step.sleepUntil(`until-${n}`, progress.wakeAt);
    }
    for (let chunk = 0; ; chunk++) {
      const deleted = await step.run(`delete-${chunk}`, () => deleteSomeData(workflowCtx(), workspaceId));
      if (deleted === 0) break;
    }
    await step.run("finish-deletion", () => finishDeletion(workflowCtx(), workspaceId, episodeId));
    return { deleted: true };
  },
);

/** Every quarter hour: trials that ended without a plan start down the ladder, and periods paid ahead begin. */
export const endTrialsFunction = inngest.createFunction(
  { id: "billing-end-trials", triggers: [{ cron: "*/15 * * * *" }], retries: 2 },
  async ({ step }) => {
    await step.run("end-trials", () => endTrials(workflowCtx()));
    await step.run("start-due-periods", () => startDuePeriods(workflowCtx()));
  },
);
