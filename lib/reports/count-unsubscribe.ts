import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

/**
 * One opt-out (what contact.unsubscribed reports) in the activity series, at
 * its time: under the brand it concerns, or workspace-wide ('') for an
 * opt-out of everything. Called in the opt-out's own transaction.
 */
export async function countUnsubscribe(
  ctx: Ctx,
  opts: { workspaceId: string; brandId: string | null; at: Date },
): Promise<void> {
  await ctx.db.execute(
    sql`select report_add_activity(${opts.workspaceId}, ${opts.brandId ?? ""}, ${opts.at.toISOString()}::timestamptz, 0, 1, 0, 0, 0)`,
  );
}
