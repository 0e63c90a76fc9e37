import "server-only";

import { sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";

/**
 * Internal: a person (not a machine) opened or clicked a mail of a campaign or an automation: engaged
 * now, and no campaign has reached them since (contact_engagement, read by the sunset of inactive contacts).
 */
export async function markEngaged(ctx: Ctx, person: { contactId: string; workspaceId: string }, now: Date) {
  await ctx.db.execute(sql`
    insert into contact_engagement (contact_id, workspace_id, last_engaged_at, campaigns_since_engaged, unengaged_since)
    values (${person.contactId}, ${person.workspaceId}, ${now.toISOString()}, 0, null)
    on conflict (contact_id) do update set last_engaged_at = excluded.last_engaged_at, campaigns_since_engaged = 0, unengaged_since = null`);
}
