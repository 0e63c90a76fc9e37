import "server-only";
import { sql } from "drizzle-orm";
import type { Ctx } from "@/lib/context";

/**
 * Fresh planner statistics for the tables an import writes, as PostgreSQL
 * advises after a bulk load. Autovacuum had not analyzed them after a
 * million-row import (measured: never, 70 s after the first chunk), and
 * plans made for the tables' earlier size read them the slow way: the export
 * of the million contacts took 12 s, 6.6 s once analyzed. ANALYZE samples a
 * fixed number of rows, so it costs about a second whatever the tables' size.
 */
export async function analyzeImportedTables(ctx: Ctx): Promise<void> {
  await ctx.db.execute(sql`analyze contacts, subscriptions, report_contact_statuses, list_members, events`);
}
