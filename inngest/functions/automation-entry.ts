import { inngest } from "@/inngest/client";
import { automationEntryStarted, automationResumed } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { waitMs } from "@/lib/automations/automation-schemas";
import { completeEntry, entrySteps, markEntryAt, sendAutomationStep } from "@/lib/automations/run-entry";
import { getMailTransport } from "@/lib/mail/get-mail-transport";

/** How long a run held at a send by a pause waits for the resume event before looking again. */
const PAUSED_RECHECK = "1d";

/**
 * One run per automation entry (docs/readings.md, "Automations"): walks the steps of the version the
 * person entered. A wait sleeps; a send re-checks consent and sends once (sendAutomationStep). A paused
 * automation holds the run at its next send: it waits for the automation's resume event (or a day,
 * then looks again) and sends then, so nobody loses their place. An exit ends the run.
 */
export const automationEntry = inngest.createFunction(
  { id: "automation-entry", triggers: [automationEntryStarted], retries: 5 },
  async ({ event, step }) => {
    const { entryId } = event.data;
    const steps = await step.run("steps", () => entrySteps(workflowCtx(), entryId));
    if (!steps) return { ended: true };
    for (const [index, current] of steps.entries()) {
      if (current.type === "wait") {
        await step.run(`at-${index}`, () => markEntryAt(workflowCtx(), entryId, index));
        await step.sleep(`wait-${index}`, waitMs(current));
        continue;
      }
      for (let attempt = 0; ; attempt++) {
        const sent = await step.run(`send-${index}-${attempt}`, () =>
          sendAutomationStep(workflowCtx(), getMailTransport(), entryId, index),
        );
        if (sent.outcome === "exited" || sent.outcome === "ended") return sent;
        if (sent.outcome !== "paused") break;
        await step.waitForEvent(`resumed-${index}-${attempt}`, {
          event: automationResumed,
          if: `async.data.automationId == '${sent.automationId}'`,
          timeout: PAUSED_RECHECK,
        });
      }
    }
    await step.run("complete", () => completeEntry(workflowCtx(), entryId, steps.length));
    return { completed: true };
  },
);
