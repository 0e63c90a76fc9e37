import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

/**
 * A benches' workspace, approved, active in billing with an allowance out of reach, and its one brand,
 * reviewed, sending as news@bench.example. Bulk-seeded as the benches seed everything, before
 * clearForSending takes it out of the sandbox.
 */
export async function seedBenchWorkspace(ctx: Ctx, ids: { workspaceId: string; brandId: string }): Promise<void> {
  const { workspaceId, brandId } = ids;
  await ctx.db.execute(sql`insert into workspaces (id, name, approved_at) values (${workspaceId}, 'Bench', now())`);
  await ctx.db.execute(
    sql`insert into workspace_billing (workspace_id, stage, stage_entered_at, send_allowance, period_started_at) values (${workspaceId}, 'active', now(), 10000000, now())`,
  );
  await ctx.db.execute(
    sql`insert into brands (id, workspace_id, name, legal_name, postal_address, website_url, sender_email, review_status) values (${brandId}, ${workspaceId}, 'Bench', 'Bench Ltd', '1 Way', 'https://bench.example', 'news@bench.example', 'approved')`,
  );
}
