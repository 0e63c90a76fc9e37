import { inngest } from "@/inngest/client";
import { contactImportRequested } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { applyImportChunks } from "@/lib/imports/apply-import-chunk";
import { vacuumImportedTables } from "@/lib/imports/vacuum-imported-tables";

/**
 * Applies an import chunk after chunk, a few chunks a step. Each chunk
 * commits with its progress mark, so a retried or resumed run carries on
 * after the last committed chunk: no row applied twice, none lost. A
 * cancelled import stops at the next chunk. Then the tables it wrote are vacuumed and analyzed (see vacuumImportedTables).
 */
export const contactImport = inngest.createFunction(
  { id: "contact-import", triggers: [contactImportRequested], retries: 5 },
  async ({ event, step }) => {
    for (let steps = 1; ; steps++) {
      const outcome = await step.run(`chunks-${steps}`, () => applyImportChunks(workflowCtx(), event.data.importId));
      if (!outcome.done) continue;
      await step.run("vacuum", () => vacuumImportedTables(workflowCtx(), event.data.importId));
      return { status: outcome.status, steps };
    }
  },
);
