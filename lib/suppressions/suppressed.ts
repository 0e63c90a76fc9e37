import "server-only";

import { and, eq, inArray, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";

import { emailDomain } from "@/lib/contacts/email-address";
import type { Ctx } from "@/lib/context";
import { suppressions } from "@/lib/db/schema";

// What a suppression blocks, in one place: its address, or every address at its domain, now and
// later. Sending (batch by batch), confirmation mail, the audience snapshot and imports all ask here.

/**
 * Which of these addresses a suppression of the workspace blocks, by address or by domain.
 * Internal: sending and confirmation mail ask it for the workspace of the campaign or subscription in hand.
 */
export async function suppressedAmong(ctx: Ctx, workspaceId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await ctx.db
    .select({ email: suppressions.email, domain: suppressions.domain })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.workspaceId, workspaceId),
        or(inArray(suppressions.email, emails), inArray(suppressions.domain, [...new Set(emails.map(emailDomain))])),
      ),
    );
  const addresses = new Set(rows.map((row) => row.email));
  const domains = new Set(rows.map((row) => row.domain));
  return new Set(emails.filter((email) => addresses.has(email) || domains.has(emailDomain(email))));
}

/**
 * The same rule inside a query, for a workspace and an address column: two
 * probes, each on its own unique index (one OR-ed probe would use neither).
 * Each probe is an index search per row, and few workspaces suppress a
 * domain: a probe runs only when the workspace has a suppression of its
 * kind, which the uncorrelated EXISTS before it asks once per query (an
 * InitPlan) in the query's own snapshot. A third of an import chunk's
 * reading went to probes of kinds the workspace had none of.
 * Internal: a condition inside queries already kept to the workspace in hand.
 */
export function suppressedSql(workspaceId: string | SQLWrapper, email: SQL | SQLWrapper): SQL {
  return sql`((exists (select 1 from suppressions where workspace_id = ${workspaceId} and email is not null)
      and exists (select 1 from suppressions x where x.workspace_id = ${workspaceId} and x.email = ${email}))
    or (exists (select 1 from suppressions where workspace_id = ${workspaceId} and domain is not null)
      and exists (select 1 from suppressions x where x.workspace_id = ${workspaceId} and x.domain = split_part(${email}, '@', 2))))`;
}

/**
 * The same rule as a filter keeping the addresses no suppression blocks, for a whole audience:
 * two NOT EXISTS, which PostgreSQL turns into anti-joins when they stand among the WHERE's
 * AND-ed conditions (not under an OR or a NOT; the parentheses do not stop it), and can then
 * hash the workspace's suppressions once instead of searching an index per recipient. It
 * chooses by its statistics: a workspace with millions of suppressions and a small audience is
 * still probed.
 * Internal: a condition inside queries already kept to the workspace in hand.
 */
export function notSuppressedSql(workspaceId: string, email: SQL): SQL {
  return sql`(not exists (select 1 from suppressions x where x.workspace_id = ${workspaceId} and x.email = ${email})
    and not exists (select 1 from suppressions x where x.workspace_id = ${workspaceId} and x.domain = split_part(${email}, '@', 2)))`;
}
