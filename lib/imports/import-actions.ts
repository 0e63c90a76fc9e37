import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { imports } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { emitEvents } from "@/lib/events/emit-events";
import { contactImportRequested } from "@/lib/events/workflow-events";
import { checkWorkspaceWritable } from "@/lib/workspaces/check-workspace-writable";

import { getImportRowOrThrow } from "./get-import";
import { emptyCounts } from "./plan-import-chunk";

/**
 * Applies a checked import in the background (the `contact-import`
 * workflow). Only after a dry run: what it found is what the sender agreed to.
 */
export async function startImport(ctx: Ctx, actor: WorkspaceActor, importId: string): Promise<void> {
  await checkWorkspaceWritable(ctx, actor.workspaceId);
  await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const started = await tx.db
      .update(imports)
      .set({
        status: "applying",
        startedAt: now,
        applied: emptyCounts(),
        appliedThrough: 1,
        appliedAhead: [],
        updatedAt: now,
      })
      .where(and(eq(imports.id, importId), eq(imports.workspaceId, actor.workspaceId), eq(imports.status, "checked")))
      .returning({ id: imports.id });
    if (started.length === 0) {
      const imp = await getImportRowOrThrow(tx, actor, importId);
      throw validationFailed(
        "import",
        imp.status === "uploaded"
          ? "Run the dry run first: an import is applied only after it was checked."
          : `This import is ${imp.status}.`,
      );
    }
    await emitEvents(tx, [{ name: contactImportRequested.name, id: `import-${importId}`, data: { importId } }]);
  });
}

/** Stops an import: before its apply, it is dropped; during it, the apply stops at the next chunk and what was applied stays. */
export async function cancelImport(ctx: Ctx, actor: WorkspaceActor, importId: string): Promise<void> {
  const now = ctx.clock.now();
  const cancelled = await ctx.db
    .update(imports)
    .set({ status: "cancelled", finishedAt: now, updatedAt: now })
    .where(
      and(
        eq(imports.id, importId),
        eq(imports.workspaceId, actor.workspaceId),
        inArray(imports.status, ["uploaded", "checked", "applying"]),
      ),
    )
    .returning({ id: imports.id });
  if (cancelled.length === 0) {
    const imp = await getImportRowOrThrow(ctx, actor, importId);
    throw validationFailed("import", `This import is already ${imp.status}.`);
  }
}
