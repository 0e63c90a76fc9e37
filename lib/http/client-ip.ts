import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

import { env, type Env } from "@/lib/env";

type HeaderSource = Headers | Record<string, string | string[] | undefined>;
type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * The TCP peer's address. App Router requests carry no socket, so
 * scripts/serve.ts writes this header on every request from the connection,
 * replacing whatever a client sent under that name.
 */
export const PEER_IP_HEADER = "x-service-peer-ip";
/**
 * Set by scripts/serve.ts in its own process. Without it nothing overwrites
 * the peer header (plain `next start`), so a client could choose it: it is
 * ignored and the client address is unknown.
 */
export const PEER_IP_HEADER_SET = "SERVICE_PEER_IP_HEADER_SET" as const;

function headerValue(headers: HeaderSource, name: string): string | undefined {
  // Duck-typed: next/headers hands out a sealed proxy, not always a Headers instance.
  if (typeof headers.get === "function") return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** Strict parsing (node's isIP): ipaddr.js alone also takes forms such as "127.1". IPv4-mapped IPv6 becomes IPv4. */
function parseAddress(text: string | undefined): Address | null {
  const value = text?.trim();
  return value && isIP(value) ? ipaddr.process(value) : null;
}

let parsed: { source: string; ranges: [Address, number][] } | null = null;

/** TRUSTED_PROXIES: comma-separated addresses or CIDR ranges. Throws on an entry it cannot read (serve.ts refuses to start). */
export function parseTrustedProxies(source: string | undefined): [Address, number][] {
  if (parsed?.source === (source ?? "")) return parsed.ranges;
  const ranges = (source ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): [Address, number] => {
      const [address, bits] = entry.split("/");
      const ip = parseAddress(address);
      const width = ip?.kind() === "ipv6" ? 128 : 32;
      const prefix = bits === undefined ? width : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
      if (!ip || !(prefix >= 0 && prefix <= width))
        throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
      return [ip, prefix];
    });
  parsed = { source: source ?? "", ranges };
  return ranges;
}

const isTrusted = (address: Address, ranges: [Address, number][]) =>
  ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));

/**
 * The client's address: the TCP peer, unless the peer is a trusted proxy
 * (TRUSTED_PROXIES); then X-Forwarded-For is walked from the right, each
 * trusted proxy vouching for the entry before it, and the first untrusted
 * entry is the client. Entries left of it are whatever the client sent and
 * are never read. Null when unknown (no peer, or a malformed entry where the
 * client should be).
 */
export function clientIpFromHeaders(
  headers: HeaderSource,
  config: Pick<Env, typeof PEER_IP_HEADER_SET | "TRUSTED_PROXIES"> = env(),
): string | null {
  const peer = config[PEER_IP_HEADER_SET] ? parseAddress(headerValue(headers, PEER_IP_HEADER)) : null;
  if (!peer) return null;
  const trusted = parseTrustedProxies(config.TRUSTED_PROXIES);
  let client = peer;
  const hops = headerValue(headers, "x-forwarded-for")?.split(",") ?? [];
  while (isTrusted(client, trusted) && hops.length > 0) {
    const hop = parseAddress(hops.pop());
    if (!hop) return null;
    client = hop;
  }
  // Every hop trusted: the furthest one is the best answer (a proxy's own health check).
  return client.toString();
}
