import { inngest } from "@/inngest/client";
import { contactBulkActionRequested } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { failBulkAction, runBulkActionChunks } from "@/lib/contacts/contact-bulk-actions";

/**
 * Runs a bulk action on contacts, chunk after chunk, several chunks a step. Each chunk commits with
 * its progress, so a retried or resumed run carries on after the last committed chunk and acts on no
 * contact twice. A run that gives up marks the action failed, with what went wrong.
 */
export const contactBulkAction = inngest.createFunction(
  { id: "contact-bulk-action", triggers: [contactBulkActionRequested], retries: 5 },
  async ({ event, step }) => {
    try {
      for (let steps = 1; ; steps++) {
        const outcome = await step.run(`chunks-${steps}`, () =>
          runBulkActionChunks(workflowCtx(), event.data.bulkActionId),
        );
        if (outcome.done) return { steps };
      }
    } catch (error) {
      await step.run("failed", () =>
        failBulkAction(workflowCtx(), event.data.bulkActionId, error instanceof Error ? error.message : String(error)),
      );
      throw error;
    }
  },
);
