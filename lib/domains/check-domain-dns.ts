import "server-only";

import { Resolver } from "node:dns/promises";

import { env, type Env } from "@/lib/env";

import { organizationalDomain, soleDmarcRecord, type DmarcLookup } from "./dmarc-policy";
import { dmarcPolicyName, judge, type CheckedRecord, type ExpectedRecord } from "./domain-records";

/** DNS_SERVERS: comma-separated resolvers (`1.1.1.1`, `127.0.0.1:5353`); unset, the system's. */
export function domainResolver(config: Pick<Env, "DNS_SERVERS"> = env()): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (config.DNS_SERVERS.length > 0) resolver.setServers(config.DNS_SERVERS);
  return resolver;
}

const ABSENT = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN"]);

async function lookup(resolver: Resolver, record: ExpectedRecord): Promise<string[]> {
  try {
    if (record.type === "TXT") return (await resolver.resolveTxt(record.name)).map((parts) => parts.join(""));
    if (record.type === "MX") return (await resolver.resolveMx(record.name)).map((mx) => mx.exchange);
    return await resolver.resolveCname(record.name);
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? "")) return [];
    throw error;
  }
}

/** Looks every record up and judges it (found, missing, or wrong with what was found). A resolver failure is thrown, not taken for "missing". */
export async function checkDomainDns(
  records: ExpectedRecord[],
  resolver: Resolver = domainResolver(),
): Promise<CheckedRecord[]> {
  return Promise.all(
    records.map(async (record) => {
      const answers = await lookup(resolver, record);
      return { ...record, ...judge(record, answers) };
    }),
  );
}

/**
 * The DMARC record receivers apply to mail from a domain (RFC 7489 §6.6.3): the one at
 * `_dmarc.<domain>`, else the one at `_dmarc.<organizational domain>` (Public Suffix List).
 */
export async function findDmarcPolicy(hostname: string, resolver: Resolver = domainResolver()): Promise<DmarcLookup> {
  const names = [...new Set([dmarcPolicyName(hostname), dmarcPolicyName(organizationalDomain(hostname))])];
  for (const name of names) {
    const record = soleDmarcRecord(
      await lookup(resolver, { kind: "dmarc", type: "TXT", name, value: "", required: false }),
    );
    if (record) return { name, record };
  }
  return { name: null, record: null };
}
