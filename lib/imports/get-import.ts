import "server-only";

import { and, desc, eq, lt } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { imports, users } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

import { appliedCount, appliedRowsOf } from "./applied-rows";

export type ImportRow = typeof imports.$inferSelect;

/** The workspace's import, or `import_not_found` (another workspace's looks like none). */
export async function getImportRowOrThrow(ctx: Ctx, actor: WorkspaceActor, importId: string): Promise<ImportRow> {
  const [imp] = await ctx.db
    .select()
    .from(imports)
    .where(and(eq(imports.id, importId), eq(imports.workspaceId, actor.workspaceId)));
  if (!imp) throw notFound("import_not_found", `No import ${importId}.`, "import");
  return imp;
}

export interface ImportSummary {
  id: string;
  fileName: string;
  status: ImportRow["status"];
  rowCount: number;
  appliedThrough: number;
  appliedAhead: ImportRow["appliedAhead"];
  checked: ImportRow["checked"];
  applied: ImportRow["applied"];
  createdBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** The imports history, newest first: who, when, which file, how far and with what result. */
export async function listImports(
  ctx: Ctx,
  actor: WorkspaceActor,
  options: { limit?: number; before?: string } = {},
): Promise<ImportSummary[]> {
  return ctx.db
    .select({
      id: imports.id,
      fileName: imports.fileName,
      status: imports.status,
      rowCount: imports.rowCount,
      appliedThrough: imports.appliedThrough,
      appliedAhead: imports.appliedAhead,
      checked: imports.checked,
      applied: imports.applied,
      createdBy: users.email,
      createdAt: imports.createdAt,
      finishedAt: imports.finishedAt,
    })
    .from(imports)
    .leftJoin(users, eq(users.id, imports.createdBy))
    .where(and(eq(imports.workspaceId, actor.workspaceId), options.before ? lt(imports.id, options.before) : undefined))
    .orderBy(desc(imports.id))
    .limit(options.limit ?? 50);
}

/** How far an apply has got, for the progress bar: rows written of rows in the file. */
export function importProgress(imp: Pick<ImportRow, "rowCount" | "appliedThrough" | "appliedAhead">): {
  done: number;
  total: number;
} {
  return { done: appliedCount(appliedRowsOf(imp.appliedThrough, imp.appliedAhead)), total: imp.rowCount };
}
