import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { foldAllContactCounts } from "@/lib/reports/fold-contact-counts";
import { foldEngagement } from "@/lib/reports/fold-engagement";

/** Folds per minute-run: at :00, :15, :30 and :45, so a delivery, open or click is in the reports ≤ ~15 s later (spec: ≤ 30 s). */
const FOLDS_PER_RUN = 4;

/**
 * Folds queued first deliveries, opens and clicks into the report counters, and
 * new contacts' counts (which readers fold anyway: this keeps their queue short).
 * Inngest crons have minute resolution (five fields), so each minute's run
 * folds, sleeps 15 s, and folds again. Runs may overlap harmlessly: a fold
 * skips the queue rows another one holds.
 */
export const foldReportCounters = inngest.createFunction(
  { id: "fold-report-counters", triggers: [{ cron: "* * * * *" }], retries: 2 },
  async ({ step }) => {
    let folded = 0;
    for (let i = 0; i < FOLDS_PER_RUN; i++) {
      if (i > 0) await step.sleep(`wait-${i}`, "15s");
      folded += await step.run(`fold-${i}`, async () => {
        const ctx = workflowCtx();
        return (await foldEngagement(ctx)) + (await foldAllContactCounts(ctx));
      });
    }
    return { folded };
  },
);
