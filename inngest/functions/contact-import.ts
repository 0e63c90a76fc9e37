import { inngest } from "@/inngest/client";
import { contactImportRequested } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { analyzeImportedTables } from "@/lib/imports/analyze-imported-tables";
import { applyNextImportChunk } from "@/lib/imports/apply-import-chunk";

/**
 * Applies an import chunk after chunk. Each chunk commits with its progress
 * mark, so a retried or resumed run carries on after the last committed
 * chunk: no row applied twice, none lost. A cancelled import stops at the
 * next chunk. Then the tables it wrote are analyzed (see analyzeImportedTables).
 */
export const contactImport = inngest.createFunction({ id: "contact-import", triggers: [contactImportRequested], retries: 5 }, async ({ event, step }) => {
  for (let chunk = 0; ; chunk++) {
    const outcome = await step.run(`chunk-${chunk}`, () => applyNextImportChunk(workflowCtx(), event.data.importId));
    if (!outcome.done) continue;
    await step.run("analyze", () => analyzeImportedTables(workflowCtx(), event.data.importId));
    return { status: outcome.status, chunks: chunk + 1 };
  }
});
