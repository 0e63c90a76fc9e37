import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { promisify } from "node:util";
import ipaddr from "ipaddr.js";

import { env } from "@/lib/env";

/** Self-hosted installs delivering to internal services, and tests with a receiver on loopback. */
export function privateTargetsAllowed(): boolean {
  return env().WEBHOOK_ALLOW_PRIVATE_TARGETS;
}

// IANA's global unicast block: ipaddr.js calls anything outside its named ranges "unicast", which
// would let through IPv4-compatible addresses (::/96, e.g. ::7f00:1 for 127.0.0.1) and unassigned space.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Only ordinary public unicast addresses: this refuses loopback, private,
 * link-local (which holds the cloud metadata address 169.254.169.254),
 * unique-local, carrier-grade NAT, multicast, reserved and unspecified
 * ranges. Of IPv6 with IPv4 inside, a mapping (::ffff:0:0/96) is judged by its
 * IPv4; IPv4-compatible (::/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4
 * (2002::/16), Teredo and SIIT addresses are refused whatever they embed.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
  return v6.range() === "unicast" && v6.match(GLOBAL_UNICAST_V6);
}

/** Said for every non-public target: never what a name resolved to, which would map the internal network. */
export const PRIVATE_TARGET_MESSAGE = "This URL points to a private or internal address";

export class TargetRefusedError extends Error {}

/** https, or plain http where private targets are allowed or in development. */
export function schemeAllowed(url: URL): boolean {
  const httpAllowed = privateTargetsAllowed() || env().NODE_ENV === "development";
  return url.protocol === "https:" || (url.protocol === "http:" && httpAllowed);
}

/** A URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

const lookupAll = promisify(dnsLookup);

/**
 * Checked when an endpoint is registered: https (plain http only where private
 * targets are allowed or in development), no credentials in the URL, and every
 * address the host resolves to public. Delivery checks the addresses again at
 * connection time, so a name that later resolves elsewhere (DNS rebinding) is
 * caught there.
 */
export async function checkTargetUrl(raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new TargetRefusedError("Enter the full URL of your endpoint, such as https://hooks.example.com/mail.");
  }
  if (!schemeAllowed(url))
    throw new TargetRefusedError(
      `The URL must start with https://, so that deliveries are encrypted.${selfHostedHint("plain http")}`,
    );
  if (url.username || url.password)
    throw new TargetRefusedError(
      "The URL must not carry a user name or password: each delivery is signed instead, and your endpoint checks the signature.",
    );
  if (privateTargetsAllowed()) return url;
  const host = hostOf(url);
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host);
  if (!addresses.every(isPublicAddress))
    throw new TargetRefusedError(
      `${PRIVATE_TARGET_MESSAGE}, which webhooks are not sent to.${selfHostedHint("private targets")}`,
    );
  return url;
}

/** For whoever runs a self-hosted install (often the person at the form); members of a hosted deployment cannot change it. */
function selfHostedHint(what: string): string {
  return env().HOSTED_SERVICE
    ? ""
    : ` To allow ${what} on a self-hosted install (an internal service, a local receiver), set WEBHOOK_ALLOW_PRIVATE_TARGETS=1 and restart the app.`;
}

async function resolve(host: string): Promise<string[]> {
  try {
    const found = (await lookupAll(host, { all: true })) as unknown as LookupAddress[];
    return found.map((entry) => entry.address);
  } catch {
    throw new TargetRefusedError(
      `No address was found for ${host}: check its spelling, and that its DNS record is published.`,
    );
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for outgoing sockets that refuses non-public addresses: the check
 * happens on the address actually connected to.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, found) => {
    if (error) return callback(error, []);
    // The message lands in the attempt log members can read: no address in it.
    if (!found.every((entry) => isPublicAddress(entry.address)))
      return callback(Object.assign(new TargetRefusedError(PRIVATE_TARGET_MESSAGE), { code: "ETARGETREFUSED" }), []);
    if (options.all) return callback(null, found);
    callback(null, found[0]!.address, found[0]!.family);
  });
}
