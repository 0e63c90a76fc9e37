import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { DAY_MS } from "@/lib/billing/plan-defaults";
import type { Ctx } from "@/lib/context";
import { env, type Env } from "@/lib/env";

/** Parts per statement: a part is up to a mebibyte. */
const PART_CHUNK = 16;
/** Staged rows per statement: each delete is a short transaction, however large the file. */
const ROW_CHUNK = 10_000;
/**
 * A finished import is cleaned up this long after it finished: a chunk that a
 * cancel caught in hand still reads its staged rows, and commits within it.
 */
export const IMPORT_CLEAN_UP_GRACE_MS = 60 * 60 * 1000;

export type PrunedImports = Record<"cancelled" | "fileParts" | "stagedRows" | "reportRows", number>;

/**
 * What an import keeps once it is over. An import finished (applied,
 * cancelled or failed) an hour ago loses its file and the staged rows it did
 * not refuse; its counts stay, and so do its refused rows, for the report,
 * until RETENTION_IMPORTS_DAYS after it finished. An import left uploaded or
 * checked, unapplied, for RETENTION_IMPORTS_DAYS is cancelled, and so
 * cleaned up as well. Every delete is a short statement of its own: the
 * hourly `prune-imports` workflow stopped half-way carries on next time.
 */
export async function pruneImports(ctx: Ctx, config: Env = env()): Promise<PrunedImports> {
  const now = ctx.clock.now();
  const finishedBefore = new Date(now.getTime() - IMPORT_CLEAN_UP_GRACE_MS).toISOString();
  const aged = new Date(now.getTime() - config.RETENTION_IMPORTS_DAYS * DAY_MS).toISOString();
  const cancelled = await ctx.db.execute(sql`
    update imports set status = 'cancelled', error = ${`Not applied within ${config.RETENTION_IMPORTS_DAYS} days.`}, finished_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
    where status in ('uploaded', 'checked') and updated_at < ${aged}`);
  const finished = sql`i.status in ('completed', 'cancelled', 'failed') and i.finished_at < ${finishedBefore}`;
  return {
    cancelled: cancelled.count,
    fileParts: await inChunks(ctx, "import_file_parts", finished, PART_CHUNK),
    stagedRows: await inChunks(ctx, "import_rows", sql`${finished} and t.refusal is null`, ROW_CHUNK),
    reportRows: await inChunks(ctx, "import_rows", sql`${finished} and i.finished_at < ${aged}`, ROW_CHUNK),
  };
}

/** Deletes the rows of `table` (t, of an import i) that `where` selects, `chunk` at a time. */
async function inChunks(
  ctx: Ctx,
  table: "import_file_parts" | "import_rows",
  where: SQL,
  chunk: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await ctx.db.execute(sql`
      delete from ${sql.identifier(table)} where ctid in (
        select t.ctid from ${sql.identifier(table)} t join imports i on i.id = t.import_id where ${where} limit ${chunk})`);
    total += result.count;
    if (result.count < chunk) return total;
  }
}
