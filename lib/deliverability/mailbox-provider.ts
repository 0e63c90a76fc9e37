import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import { mailboxDomains } from "@/lib/db/schema";

import type { MailboxProvider } from "./provider-pace-schemas";

export { MAILBOX_PROVIDERS, PROVIDER_LABELS, type MailboxProvider } from "./provider-pace-schemas";

/**
 * Consumer domains whose provider is known without asking DNS, and the fallback when a lookup fails.
 * A company domain hosted by Google or Microsoft is only found through its MX hosts.
 */
const KNOWN_DOMAINS: Record<string, Exclude<MailboxProvider, "other">> = {
  "gmail.com": "gmail",
  "googlemail.com": "gmail",
  "outlook.com": "microsoft",
  "hotmail.com": "microsoft",
  "hotmail.co.uk": "microsoft",
  "hotmail.fr": "microsoft",
  "hotmail.de": "microsoft",
  "hotmail.it": "microsoft",
  "live.com": "microsoft",
  "live.co.uk": "microsoft",
  "live.fr": "microsoft",
  "msn.com": "microsoft",
  "outlook.fr": "microsoft",
  "outlook.de": "microsoft",
  "yahoo.com": "yahoo",
  "yahoo.co.uk": "yahoo",
  "yahoo.fr": "yahoo",
  "yahoo.de": "yahoo",
  "yahoo.co.jp": "yahoo",
  "ymail.com": "yahoo",
  "rocketmail.com": "yahoo",
  "aol.com": "yahoo",
  "icloud.com": "apple",
  "me.com": "apple",
  "mac.com": "apple",
};

/** MX host suffixes of each provider: Google Workspace, Microsoft 365, Yahoo (and AOL), iCloud. */
const MX_SUFFIXES: [string, Exclude<MailboxProvider, "other">][] = [
  ["google.com", "gmail"],
  ["googlemail.com", "gmail"],
  ["outlook.com", "microsoft"],
  ["hotmail.com", "microsoft"],
  ["yahoodns.net", "yahoo"],
  ["icloud.com", "apple"],
  ["me.com", "apple"],
];

/** A cached answer is trusted this long: providers move rarely, and a stale one only changes a pace. */
export const MX_CACHE_TTL_MS = 7 * 24 * 3600_000;
/** Distinct domains looked up per campaign, the largest first; smaller ones wait for another campaign. */
const LOOKUPS_PER_CAMPAIGN = 200;
const PARALLEL_LOOKUPS = 8;

const NO_ANSWER = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN"]);

export type MxLookup = (domain: string) => Promise<{ exchange: string; priority: number }[]>;

export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

export function providerOfKnownDomain(domain: string): MailboxProvider | null {
  return KNOWN_DOMAINS[domain.toLowerCase()] ?? null;
}

/** The provider whose host receives the domain's mail: the MX hosts in order of preference, the first one known. */
export function providerOfMxHosts(hosts: { exchange: string; priority: number }[]): MailboxProvider {
  for (const { exchange } of [...hosts].sort((a, b) => a.priority - b.priority)) {
    const host = exchange.toLowerCase().replace(/\.$/, "");
    const match = MX_SUFFIXES.find(([suffix]) => host === suffix || host.endsWith(`.${suffix}`));
    if (match) return match[1];
  }
  return "other";
}

/** Names reserved for documentation and tests (RFC 2606, RFC 6761): never looked up. */
function reserved(domain: string): boolean {
  return /(^|\.)(example|test|invalid|localhost)$/.test(domain) || /(^|\.)example\.(com|net|org)$/.test(domain);
}

/**
 * Puts the provider of each given domain in the cache: a known consumer domain from the list, any
 * other from its MX hosts (looked up `PARALLEL_LOOKUPS` at a time), a domain whose lookup fails as
 * `other` with source `none`, asked again after the TTL. Domains with a fresh answer are left alone.
 * Returns what it decided.
 */
export async function classifyDomains(
  ctx: Ctx,
  domains: string[],
  lookupMx: MxLookup,
): Promise<Map<string, MailboxProvider>> {
  const now = ctx.clock.now();
  const wanted = [...new Set(domains.map((domain) => domain.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const fresh = await ctx.db.execute<{ domain: string; provider: MailboxProvider }>(sql`
    select domain, provider from ${mailboxDomains}
    where domain = any(${idArray(wanted)}) and checked_at > ${new Date(now.getTime() - MX_CACHE_TTL_MS).toISOString()}::timestamptz`);
  const decided = new Map<string, MailboxProvider>(fresh.map((row) => [row.domain, row.provider]));
  const rows: { domain: string; provider: MailboxProvider; source: string }[] = [];
  const todo = wanted.filter((domain) => !decided.has(domain));
  for (let i = 0; i < todo.length; i += PARALLEL_LOOKUPS) {
    await Promise.all(
      todo.slice(i, i + PARALLEL_LOOKUPS).map(async (domain) => {
        const known = providerOfKnownDomain(domain);
        let answer: { provider: MailboxProvider; source: string };
        // A consumer domain on the list needs no lookup; a name reserved for examples and tests gets none.
        if (known) answer = { provider: known, source: "list" };
        else if (reserved(domain)) answer = { provider: "other", source: "none" };
        else {
          try {
            const hosts = await lookupMx(domain);
            answer = { provider: providerOfMxHosts(hosts), source: "mx" };
          } catch (error) {
            answer = { provider: "other", source: "none" };
            // No such domain, or no MX: other, for the TTL. A lookup that failed for now (a timeout) decides nothing lasting.
            if (!NO_ANSWER.has((error as { code?: string }).code ?? "")) {
              decided.set(domain, answer.provider);
              return;
            }
          }
        }
        decided.set(domain, answer.provider);
        rows.push({ domain, ...answer });
      }),
    );
  }
  if (rows.length > 0)
    await ctx.db.execute(sql`
      insert into ${mailboxDomains} (domain, provider, source, checked_at)
      select domain, provider, source, ${now.toISOString()}::timestamptz from json_to_recordset(${JSON.stringify(rows)}::json)
        as v(domain text, provider text, source text)
      on conflict (domain) do update set provider = excluded.provider, source = excluded.source, checked_at = excluded.checked_at`);
  return decided;
}

/**
 * System: before a campaign's snapshot, the largest recipient domains of its topic (and list) that the
 * cache has no fresh answer for are classified, so the snapshot finds every sizeable one in the cache.
 */
export async function classifyAudienceDomains(
  ctx: Ctx,
  audience: { topicId: string; listId: string | null },
  lookupMx: MxLookup,
): Promise<number> {
  const rows = await ctx.db.execute<{ domain: string }>(sql`
    select domain from (
      select split_part(c.email, '@', 2) as domain, count(*) as n
      from subscriptions s join contacts c on c.id = s.contact_id
      where s.topic_id = ${audience.topicId} and s.state = 'subscribed'
        ${audience.listId ? sql`and exists (select 1 from list_members m where m.list_id = ${audience.listId} and m.contact_id = c.id)` : sql``}
      group by 1) a
    where not exists (select 1 from ${mailboxDomains} d where d.domain = a.domain
                      and d.checked_at > ${new Date(ctx.clock.now().getTime() - MX_CACHE_TTL_MS).toISOString()}::timestamptz)
    order by n desc
    limit ${LOOKUPS_PER_CAMPAIGN}`);
  const decided = await classifyDomains(
    ctx,
    rows.map((row) => row.domain),
    lookupMx,
  );
  return decided.size;
}

/**
 * The provider of the address in `email` as the snapshot writes it: the cached answer, else the
 * known-domain list, else `other`. `cache` is the alias of a left join on mailbox_domains by domain.
 */
export function providerOfEmailSql(email: SQL, cache: SQL): SQL {
  const whens = Object.entries(KNOWN_DOMAINS).map(
    ([domain, provider]) => sql`when ${sql.raw(`'${domain}'`)} then ${sql.raw(`'${provider}'`)}`,
  );
  return sql`coalesce(${cache}.provider, case split_part(${email}, '@', 2) ${sql.join(whens, sql` `)} else 'other' end)`;
}
