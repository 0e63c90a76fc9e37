import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

/**
 * Adds the workspace's queued new-contact counts to its status buckets and its contacts_added series
 * (report_fold_contact_counts in lib/db/sql/reports.sql). Every reader of those figures calls it
 * first: a contact insert queues its count rather than wait for the workspace's counter row, and the
 * figures must still be exact at the next request. Waits for a fold already under way, so the reader
 * sees its counts too. Returns how many queued rows it folded.
 * Internal: the report readers, with their actor's workspace.
 */
export async function foldContactCounts(ctx: Ctx, workspaceId: string): Promise<number> {
  const [row] = await ctx.db.execute<{ n: number }>(sql`select report_fold_contact_counts(${workspaceId}) as n`);
  return Number(row!.n);
}

/**
 * Folds every workspace's queued new-contact counts, so the queue stays short between reads (the report
 * cron). One statement per workspace: each holds its workspace's counter row only while it runs.
 */
export async function foldAllContactCounts(ctx: Ctx): Promise<number> {
  const queued = await ctx.db.execute<{ workspace_id: string }>(
    sql`select distinct workspace_id from report_contact_count_queue`,
  );
  let folded = 0;
  for (const { workspace_id } of queued) folded += await foldContactCounts(ctx, workspace_id);
  return folded;
}
