import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { isbot } from "isbot";

/**
 * Who made an open or a click that no person made (docs/readings.md, "Sunset of inactive contacts").
 * Such an open or click is recorded as before (reports and webhooks count the pixel and the link as the
 * contract says) and marked with this, so that the sunset does not take it for a person's engagement.
 */
export type MachineKind = "apple_privacy_proxy" | "link_scanner" | "bot";

/** What the tracking routes know of a request: its user agent and the client's address, when known. */
export interface TrackingRequest {
  userAgent: string | null;
  ip: string | null;
}

/**
 * Apple Mail Privacy Protection loads every image of a mail through Apple's proxy when the mail
 * arrives, whether or not it is read. Its fetches send the bare user agent `Mozilla/5.0` and come from
 * Apple's own network, 17.0.0.0/8; either sign is taken as the proxy.
 */
const APPLE_PROXY_USER_AGENT = "Mozilla/5.0";
const APPLE_NETWORK = ipaddr.parseCIDR("17.0.0.0/8");

/**
 * Image proxies that fetch the pixel when the person opens the mail (Gmail, Yahoo): bots to isbot, but
 * the open is the person's, so they count.
 */
const MAIL_IMAGE_PROXY = /GoogleImageProxy|YahooMailProxy|ggpht\.com/i;

/**
 * Scanners that follow every link of an arriving mail, by name. isbot knows most of them (Barracuda,
 * Mimecast, Proofpoint); these are the ones its list may miss.
 */
const LINK_SCANNER = /Barracuda|Mimecast|Proofpoint|SafeLinks|Forcepoint|IronPort/i;

/**
 * A person does not follow a link within seconds of the mail being handed over: scanners of the
 * receiving side (Microsoft Defender's Safe Links among them, under an ordinary browser's user agent) do.
 */
export const SCANNER_WINDOW_MS = 10_000;

function fromAppleNetwork(ip: string | null): boolean {
  if (!ip || !isIP(ip.trim())) return false;
  const address = ipaddr.process(ip.trim());
  return address.kind() === "ipv4" && address.match(APPLE_NETWORK);
}

/** The machine that loaded the open pixel, or null for a person (or their mail provider's image proxy). */
export function machineOpen({ userAgent, ip }: TrackingRequest): MachineKind | null {
  const agent = userAgent?.trim() ?? "";
  if (agent === APPLE_PROXY_USER_AGENT || fromAppleNetwork(ip)) return "apple_privacy_proxy";
  if (MAIL_IMAGE_PROXY.test(agent)) return null;
  if (agent === "" || isbot(agent)) return "bot";
  return null;
}

/**
 * The machine that followed a tracked link, or null for a person: a scanner by its name, any other bot
 * or a request without a user agent, or anything within SCANNER_WINDOW_MS of the mail being handed to the provider.
 */
export function machineClick(
  { userAgent }: TrackingRequest,
  timing: { sentAt: Date | null; now: Date },
): MachineKind | null {
  const agent = userAgent?.trim() ?? "";
  if (LINK_SCANNER.test(agent)) return "link_scanner";
  if (timing.sentAt && timing.now.getTime() - timing.sentAt.getTime() < SCANNER_WINDOW_MS) return "link_scanner";
  if (agent === "" || isbot(agent)) return "bot";
  return null;
}

/** How a contact's timeline names an open or click a machine made. */
export function machineLabel(kind: string): string {
  if (kind === "apple_privacy_proxy") return "machine open: Apple Mail Privacy Protection";
  if (kind === "link_scanner") return "machine click: link scanner";
  return "machine: bot";
}
