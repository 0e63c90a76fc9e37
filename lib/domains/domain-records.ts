// The DNS records a sending domain needs, and how a published value is judged. No I/O here.

import { isIP } from "node:net";

import { env, type Env } from "@/lib/env";

export type RecordKind = "spf" | "dkim" | "dmarc" | "return_path" | "ownership";
export type RecordType = "TXT" | "MX" | "CNAME";

export interface ExpectedRecord {
  kind: RecordKind;
  type: RecordType;
  /** Fully qualified, without a trailing dot. */
  name: string;
  value: string;
  /** MX only. */
  priority?: number;
  /** A recommended record (DMARC's policy) is reported but does not hold the domain back. */
  required: boolean;
}

export type RecordStatus = "found" | "missing" | "wrong";

export interface CheckedRecord extends ExpectedRecord {
  status: RecordStatus;
  /** What DNS answered at the name, for a wrong record. */
  found: string[];
}

export interface DomainRecordInput {
  hostname: string;
  dkimSelector: string;
  dkimPublicKey: string;
}

/**
 * SPF_INCLUDE: the include of the servers that send for the service (the SMTP relay's, say); unset,
 * `_spf.` and APP_URL's host. Null when that host is an IP address or a local name (localhost, a
 * name without a dot): `include:_spf.127.0.0.1` names nothing, and publishing it would fail SPF.
 */
export function spfInclude(config: Pick<Env, "SPF_INCLUDE" | "APP_URL"> = env()): string | null {
  if (config.SPF_INCLUDE) return config.SPF_INCLUDE;
  const host = new URL(config.APP_URL).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const local =
    isIP(host) !== 0 ||
    !host.includes(".") ||
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local");
  return local ? null : `_spf.${host}`;
}

/**
 * Our own records: for SMTP (we sign with the domain's DKIM key) and the local mailbox. Without an
 * SPF include there is no SPF record to ask for (the domain page says to set SPF_INCLUDE): DKIM
 * alone passes DMARC.
 */
export function ownRecords(domain: DomainRecordInput, include: string | null): ExpectedRecord[] {
  return [
    ...(include
      ? [
          {
            kind: "spf" as const,
            type: "TXT" as const,
            name: domain.hostname,
            value: `v=spf1 include:${include} ~all`,
            required: true,
          },
        ]
      : []),
    {
      kind: "dkim",
      type: "TXT",
      name: `${domain.dkimSelector}._domainkey.${domain.hostname}`,
      value: `v=DKIM1; k=rsa; p=${domain.dkimPublicKey}`,
      required: true,
    },
    dmarcRecord(domain.hostname),
  ];
}

/**
 * A TXT record only whoever holds the hostname's DNS can publish, its value
 * naming this domain row: published, it shows the workspace owns the hostname
 * (another workspace adding the same hostname has another value).
 */
export function ownershipRecord(domain: { id: string; hostname: string }): ExpectedRecord {
  return {
    kind: "ownership",
    type: "TXT",
    name: `_mailservice.${domain.hostname}`,
    value: `mailservice-domain-verification=${domain.id}`,
    required: true,
  };
}

/** Where a domain's DMARC record is published. */
export function dmarcPolicyName(hostname: string): string {
  return `_dmarc.${hostname.trim().toLowerCase().replace(/\.$/, "")}`;
}

/** DMARC is required by the large mailbox providers for bulk senders; `p=none` starts by only reporting. */
export function dmarcRecord(hostname: string): ExpectedRecord {
  return {
    kind: "dmarc",
    type: "TXT",
    name: dmarcPolicyName(hostname),
    value: `v=DMARC1; p=none; rua=mailto:dmarc-reports@${hostname}`,
    required: true,
  };
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");
const spaces = (text: string) => text.trim().replace(/\s+/g, " ");

/** `k=v; k=v` tags (DKIM, DMARC), names lower-cased, values as written. */
function tags(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of text.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) result.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ""));
  }
  return result;
}

/**
 * Judges what DNS answered at an expected record's name. TXT answers come
 * as lists of strings (long values are split) and are joined first. Only
 * answers of the record's own kind count (an SPF record among other TXT
 * records at the apex); none of them is `missing`, one that differs is
 * `wrong`. SPF compares case-insensitively, DKIM's key exactly, DMARC needs
 * `v=DMARC1` and a policy (its `p=` is the sender's choice); names compare
 * without case or trailing dot.
 */
export function judge(expected: ExpectedRecord, answers: string[]): { status: RecordStatus; found: string[] } {
  if (expected.type === "MX" || expected.type === "CNAME") {
    const found = answers.map(bare);
    if (found.length === 0) return { status: "missing", found };
    return { status: found.includes(bare(expected.value)) ? "found" : "wrong", found };
  }
  switch (expected.kind) {
    case "spf": {
      const found = answers.map(spaces).filter((text) => /^v=spf1(\s|$)/i.test(text));
      if (found.length === 0) return { status: "missing", found };
      // Two SPF records make SPF fail outright (RFC 7208, 4.5): that is wrong even if one is right.
      return {
        status:
          found.length === 1 && found[0]!.toLowerCase() === spaces(expected.value).toLowerCase() ? "found" : "wrong",
        found,
      };
    }
    case "dkim": {
      const found = answers.map(spaces).filter((text) => tags(text).has("p"));
      if (found.length === 0) return { status: "missing", found: answers.map(spaces) };
      const want = tags(expected.value);
      const right = found.some((text) => {
        const have = tags(text);
        return (
          have.get("p") === want.get("p") &&
          (have.get("k") ?? "rsa").toLowerCase() === "rsa" &&
          (have.get("v") ?? "DKIM1").toUpperCase() === "DKIM1"
        );
      });
      return { status: right ? "found" : "wrong", found };
    }
    case "dmarc": {
      const found = answers.map(spaces).filter((text) => /^v\s*=\s*DMARC1/i.test(text));
      if (found.length === 0) return { status: answers.length > 0 ? "wrong" : "missing", found: answers.map(spaces) };
      return { status: found.length === 1 && tags(found[0]!).has("p") ? "found" : "wrong", found };
    }
    default: {
      const found = answers.map(spaces);
      if (found.length === 0) return { status: "missing", found };
      return { status: found.includes(spaces(expected.value)) ? "found" : "wrong", found };
    }
  }
}
