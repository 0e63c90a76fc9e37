import "server-only";

import { and, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { imports, type ImportCounts } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { getListOrThrow } from "@/lib/lists/get-list-or-throw";
import { collectGarbageAfter } from "@/lib/runtime/collect-garbage";
import { getTopicForActorOrThrow } from "@/lib/topics/get-topic-for-actor";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import { writeRefusals } from "./apply-import-chunk";
import { getImportRowOrThrow } from "./get-import";
import { importFields, type ImportField } from "./import-fields";
import type { CheckImportInput } from "./import-schemas";
import { canEdit } from "./import-status";
import { addCounts, emptyCounts, previewImportChunk } from "./plan-import-chunk";
import { stageImportRows } from "./stage-import-rows";

const PLAN_ROWS = 20_000;

/** A mapping names each field once, the address exactly once, and only fields the workspace has. */
function checkMapping(mapping: string[], header: string[], fields: ImportField[]): void {
  if (mapping.length > header.length)
    throw validationFailed("mapping", "The mapping names more columns than the file has.");
  const known = new Set(fields.map((f) => f.key));
  const seen = new Set<string>();
  for (const [column, field] of mapping.entries()) {
    if (!field) continue;
    if (!known.has(field)) throw validationFailed(`mapping.${column}`, `No field ${field} in this workspace.`);
    if (seen.has(field)) throw validationFailed(`mapping.${column}`, `${field} is filled by two columns; choose one.`);
    seen.add(field);
  }
  if (!seen.has("email")) throw validationFailed("mapping", "Choose the column that holds the email address.");
}

/**
 * The dry run, always before an apply: reads the whole file through the
 * mapping and says what applying it would do, row by row, without changing
 * any contact. Counts new, updated (per field) and unchanged contacts and
 * refused rows by reason, each refused row kept with its reason for the
 * refused-rows file. Checking again (another mapping) replaces the result.
 */
export async function checkImport(
  ctx: Ctx,
  actor: WorkspaceActor,
  importId: string,
  input: CheckImportInput,
): Promise<ImportCounts> {
  const imp = await getImportRowOrThrow(ctx, actor, importId);
  if (!canEdit(imp.status))
    throw validationFailed(
      "import",
      "This import has already been applied or cancelled: upload the file again to import it anew.",
    );
  await checkWorkspaceWritable(ctx, actor.workspaceId);
  const fields = await importFields(ctx, actor);
  checkMapping(input.mapping, imp.header, fields);
  const topicIds = [...new Set(input.topicIds)];
  for (const [index, topicId] of topicIds.entries())
    await getTopicForActorOrThrow(ctx, actor, topicId, `topicIds.${index}`);
  if (input.listId) await getListOrThrow(ctx, actor, input.listId);
  const options = { policy: input.policy, topicIds, listId: input.listId, startAutomations: input.startAutomations };

  await ctx.db
    .update(imports)
    .set({ status: "uploaded", checked: null, updatedAt: ctx.clock.now() })
    .where(eq(imports.id, imp.id));
  const refusedWhenStaged = await stageImportRows(ctx, imp, input.mapping, fields);

  // Each row is refused once: when staged (its cells, or a later row with its address), or by its chunk's plan.
  const counts = { ...emptyCounts(), refused: refusedWhenStaged };
  const scope = { id: imp.id, workspaceId: imp.workspaceId, options };
  const lastRow = imp.rowCount + 1;
  // The next chunk is read while this one is: two connections, and the reading is the database's work, on
  // both cores. A reading's failure is thrown where it is awaited; until then it is not unhandled.
  const preview = (from: number) => {
    const reading = previewImportChunk(ctx, scope, from, from + PLAN_ROWS);
    reading.catch(() => {});
    return reading;
  };
  let next: ReturnType<typeof preview> | undefined = preview(1);
  for (let from = 1; from < lastRow; from += PLAN_ROWS) {
    const reading = next!;
    next = from + PLAN_ROWS < lastRow ? preview(from + PLAN_ROWS) : undefined;
    const plan = await reading;
    await writeRefusals(ctx, imp.id, plan.refusals);
    addCounts(counts, plan.counts);
  }
  counts.rows = imp.rowCount;

  const now = ctx.clock.now();
  await ctx.db
    .update(imports)
    .set({
      status: "checked",
      mapping: input.mapping,
      options,
      checked: counts,
      checkedAt: now,
      // Subscribing to topics needs the statement of consent (the schema refuses it without): who made it, and when.
      consentAssertedBy: topicIds.length > 0 && actor.kind === "user" ? actor.userId : null,
      consentAssertedAt: topicIds.length > 0 ? now : null,
      updatedAt: now,
    })
    .where(and(eq(imports.id, imp.id), eq(imports.status, "uploaded")));
  collectGarbageAfter(imp.byteSize);
  return counts;
}
