import "server-only";

import { eq, sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { imports } from "@/lib/db/schema";
import { logger } from "@/lib/log/logger";

/**
 * Fresh planner statistics for the tables an import writes, as PostgreSQL
 * advises after a bulk load. Autovacuum had not analyzed them after a
 * million-row import (measured: never, 70 s after the first chunk), and
 * plans made for the tables' earlier size read them the slow way: the export
 * of the million contacts took 12 s, 6.6 s once analyzed.
 *
 * Vacuumed as well: the first query to read a freshly written row marks it
 * as committed (its hint bits), a write on a read. Done here, in the
 * background, that cost is not paid by the sender's first export or
 * campaign after the import: an export of 196,001 just-imported contacts
 * went from 2.7 s to 1.9 s. It also sets the visibility map, which lets
 * index-only scans skip the rows.
 *
 * Only when the import wrote at least a tenth as many rows as the contacts
 * table held (autovacuum's own measure of a change worth analyzing): a small
 * import into a large database leaves it to autovacuum. Best effort: the
 * import is done either way, so a failure is logged, not retried (and a role
 * that does not own the tables has them skipped with a warning).
 */
export async function vacuumImportedTables(ctx: Ctx, importId: string): Promise<boolean> {
  const [imp] = await ctx.db.select({ applied: imports.applied }).from(imports).where(eq(imports.id, importId));
  const written = imp?.applied ? imp.applied.created + imp.applied.updated + imp.applied.subscribed : 0;
  const [contacts] = await ctx.db.execute<{ n: number }>(
    sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = 'contacts'::regclass`,
  );
  if (written === 0 || written * 10 < Number(contacts!.n)) return false;
  try {
    // A connection of its own: the pool queues other queries behind a busy one, and a vacuum takes seconds.
    const connection = await rawClient(ctx.db).reserve();
    try {
      // Longer than the pool's statement timeout on a large database: lifted for this one, and put back after.
      await connection`set statement_timeout = 0`;
      await connection`vacuum (analyze) contacts, subscriptions, report_contact_statuses, list_members, events`;
    } finally {
      await connection`reset statement_timeout`.catch(() => {});
      connection.release();
    }
    return true;
  } catch (error) {
    logger().warn({ err: error, import_id: importId }, "could not vacuum and analyze the tables an import wrote");
    return false;
  }
}
