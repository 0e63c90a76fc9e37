import "server-only";
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { emailDomain } from "@/lib/contacts/email-address";
import type { Ctx } from "@/lib/context";
import { suppressions } from "@/lib/db/schema";

// What a suppression blocks, in one place: its address, or every address at its domain, now and
// later. Sending (batch by batch), confirmation mail, the audience snapshot and imports all ask here.

/** Which of these addresses a suppression of the workspace blocks, by address or by domain. */
export async function suppressedAmong(ctx: Ctx, workspaceId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await ctx.db
    .select({ email: suppressions.email, domain: suppressions.domain })
    .from(suppressions)
    .where(and(eq(suppressions.workspaceId, workspaceId), or(inArray(suppressions.email, emails), inArray(suppressions.domain, [...new Set(emails.map(emailDomain))]))));
  const addresses = new Set(rows.map((row) => row.email));
  const domains = new Set(rows.map((row) => row.domain));
  return new Set(emails.filter((email) => addresses.has(email) || domains.has(emailDomain(email))));
}

/** Whether a workspace has any address suppressions, and any domain suppressions. */
export interface SuppressionKinds {
  addresses: boolean;
  domains: boolean;
}

/**
 * The kinds of suppression a workspace has, read in the transaction that
 * then asks suppressedSql: a probe for a kind it has none of is left out.
 * Each probe is an index search per row, a third of an import chunk's
 * reading, and few workspaces suppress a domain. A suppression added after
 * this read is as one added after the query: sending asks again
 * (suppressedAmong) before each batch.
 */
export async function suppressionKinds(ctx: Ctx, workspaceId: string): Promise<SuppressionKinds> {
  const [kinds] = await ctx.db.execute<{ addresses: boolean; domains: boolean }>(sql`
    select exists (select 1 from suppressions where workspace_id = ${workspaceId} and email is not null) as addresses,
           exists (select 1 from suppressions where workspace_id = ${workspaceId} and domain is not null) as domains`);
  return { addresses: kinds!.addresses, domains: kinds!.domains };
}

/**
 * The same rule inside a query, for a workspace and an address column: two
 * probes, each on its own unique index (one OR-ed probe would use neither),
 * of the kinds the workspace has (suppressionKinds).
 */
export function suppressedSql(workspaceId: SQL, email: SQL, kinds: SuppressionKinds): SQL {
  const probes = [
    ...(kinds.addresses ? [sql`exists (select 1 from suppressions x where x.workspace_id = ${workspaceId} and x.email = ${email})`] : []),
    ...(kinds.domains ? [sql`exists (select 1 from suppressions x where x.workspace_id = ${workspaceId} and x.domain = split_part(${email}, '@', 2))`] : []),
  ];
  return probes.length === 0 ? sql`false` : sql`(${sql.join(probes, sql` or `)})`;
}
