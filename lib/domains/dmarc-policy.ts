// A domain's DMARC policy as receivers find it (RFC 7489 §6.6.3) and the organizational domain
// alignment is judged by (§3.2). No I/O here: find-dmarc-policy.ts looks the record up.

import { getDomain } from "tldts";

export type AlignmentMode = "relaxed" | "strict";

/** A published DMARC record, read: the tags alignment and the dashboard need. */
export interface DmarcPolicy {
  /** p=: none, quarantine or reject. */
  policy: string;
  /** sp=: the policy for subdomains of the domain that published it, when given. */
  subdomainPolicy: string | null;
  adkim: AlignmentMode;
  aspf: AlignmentMode;
}

/**
 * What the last check found: the record, and the name it was published at (`_dmarc.<From
 * domain>`, else `_dmarc.<organizational domain>`); `record: null` when neither has one.
 */
export interface DmarcLookup {
  name: string | null;
  record: string | null;
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

/**
 * The registered domain a name belongs to, by the Public Suffix List: mail.example.com →
 * example.com, news.example.co.uk → example.co.uk. Private suffixes count as the list's ICANN
 * ones do (a user's site under github.io is that user's), as receivers' DMARC libraries read the
 * list. A name the list cannot place (localhost, a bare suffix) is its own organizational domain.
 */
export function organizationalDomain(hostname: string): string {
  const name = bare(hostname);
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/**
 * Reads a DMARC record: `v=DMARC1` first, then `k=v` tags separated by `;`. A record without a
 * valid `p=` is no policy (null). adkim and aspf are `r` (relaxed) unless `s` is written: an unknown
 * value is ignored as the RFC says, which leaves the default.
 */
export function parseDmarcRecord(text: string): DmarcPolicy | null {
  const parts = text.split(";").map((part) => part.trim());
  if (!/^v\s*=\s*DMARC1$/i.test(parts[0] ?? "")) return null;
  const tags = new Map<string, string>();
  for (const part of parts.slice(1)) {
    const eq = part.indexOf("=");
    if (eq > 0)
      tags.set(
        part.slice(0, eq).trim().toLowerCase(),
        part
          .slice(eq + 1)
          .trim()
          .toLowerCase(),
      );
  }
  const policies = ["none", "quarantine", "reject"];
  const policy = tags.get("p") ?? "";
  if (!policies.includes(policy)) return null;
  const sp = tags.get("sp") ?? "";
  const mode = (value: string | undefined): AlignmentMode => (value === "s" ? "strict" : "relaxed");
  return {
    policy,
    subdomainPolicy: policies.includes(sp) ? sp : null,
    adkim: mode(tags.get("adkim")),
    aspf: mode(tags.get("aspf")),
  };
}

/**
 * The DMARC records among a name's TXT answers. Exactly one counts: with none or several, a
 * receiver applies no policy from that name (RFC 7489 §6.6.3).
 */
export function soleDmarcRecord(answers: string[]): string | null {
  const records = answers.map((text) => text.trim()).filter((text) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(text));
  return records.length === 1 ? records[0]! : null;
}

/**
 * The policy a receiver applies to mail from `fromDomain`: the record's `sp=` when the record was
 * found at the organizational domain and the From domain is below it, else its `p=`.
 */
export function appliedPolicy(fromDomain: string, lookup: DmarcLookup, policy: DmarcPolicy): string {
  const atOrganization = lookup.name !== null && bare(lookup.name) !== `_dmarc.${bare(fromDomain)}`;
  return atOrganization && policy.subdomainPolicy ? policy.subdomainPolicy : policy.policy;
}

/**
 * Whether an authenticated domain (DKIM's d=, or the return path's domain SPF checked) aligns with
 * the From domain (RFC 7489 §3.1): strict, the same name; relaxed, the same organizational domain.
 */
export function identifiersAlign(fromDomain: string, authenticated: string, mode: AlignmentMode): boolean {
  const from = bare(fromDomain);
  const other = bare(authenticated);
  if (mode === "strict") return from === other;
  return organizationalDomain(from) === organizationalDomain(other);
}
