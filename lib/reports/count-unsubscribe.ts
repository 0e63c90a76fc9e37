import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

/**
 * One opt-out (what contact.unsubscribed reports) in the activity series, at
 * its time: under the brand it concerns, or workspace-wide ('') for an
 * opt-out of everything. Called in the opt-out's own transaction; `count`
 * opt-outs at once for a bulk action's chunk (one per person who opted out).
 */
export async function countUnsubscribe(
  ctx: Ctx,
  opts: { workspaceId: string; brandId: string | null; at: Date; count?: number },
): Promise<void> {
  await ctx.db.execute(
    sql`select report_add_activity(${opts.workspaceId}, ${opts.brandId ?? ""}, ${opts.at.toISOString()}::timestamptz, 0, ${opts.count ?? 1}, 0, 0, 0)`,
  );
}
