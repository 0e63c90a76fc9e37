import type { DomainState } from "@/lib/db/schema";
import { env, type Env } from "@/lib/env";
import { mailTransportName } from "@/lib/mail/mailbox-enabled";

import type { CheckedRecord, ExpectedRecord } from "./domain-records";

// No I/O: what the transports put on a domain's mail, read from the same settings they read.

/** The two domains receivers authenticate on a brand's mail, and whether each passes its own check. */
export interface SendingIdentity {
  carrier: "local" | "smtp" | "resend";
  /** DKIM's d= on the domain's mail once it is ready; null while the carrier has not said (Resend before it has the domain). */
  dkimDomain: string | null;
  /** The signature verifies: the domain is ready, so its key signs and its record is published. */
  dkimPasses: boolean;
  /** SMTP only: the d= of the installation's own key (DKIM_DOMAIN) that signs until the domain is ready; null, unsigned. */
  dkimUntilReady: string | null;
  /** The envelope sender's (MAIL FROM, the bounce address) domain, which SPF checks; null while unknown. */
  returnPathDomain: string | null;
  /** Where the return path comes from: BOUNCE_DOMAIN, the From address itself, or the carrier's records. */
  returnPathFrom: "bounce_domain" | "from_address" | "carrier";
  /** SPF passes at the return path's domain: true, false, or null when that record is the operator's and not checked here. */
  spfPasses: boolean | null;
}

interface DomainLike {
  hostname: string;
  state: DomainState;
  records: CheckedRecord[];
  carrierRecords: ExpectedRecord[];
}

/** `<selector>._domainkey.<d>` → d. */
function signingDomainOf(recordName: string): string | null {
  const at = recordName.toLowerCase().indexOf("._domainkey.");
  return at < 0 ? null : recordName.slice(at + "._domainkey.".length).replace(/\.$/, "");
}

/**
 * SMTP (and the local mailbox, which stores what SMTP would send) signs a ready domain's mail with
 * the domain's own key (d=<hostname>, domain-signing-key.ts) and, before that, with DKIM_DOMAIN's
 * key or not at all; its envelope sender is the signed bounce address at BOUNCE_DOMAIN when set
 * (return-path.ts), else the From address. Resend signs with the DKIM record it gave
 * (`resend._domainkey.<hostname>`) and sends from the return path of its SPF record (a subdomain,
 * `send.<hostname>`), both read from the records it returned.
 */
export function sendingIdentity(
  domain: DomainLike,
  config: Pick<Env, "MAIL_TRANSPORT" | "BOUNCE_DOMAIN" | "DKIM_DOMAIN"> = env(),
): SendingIdentity {
  const carrier = mailTransportName(config);
  const ready = domain.state === "ready";
  if (carrier === "resend") {
    const dkim = domain.carrierRecords.find((record) => record.kind === "dkim");
    const returnPath = domain.carrierRecords.find((record) => record.kind === "return_path");
    return {
      carrier,
      dkimDomain: dkim ? signingDomainOf(dkim.name) : null,
      dkimPasses: ready && dkim !== undefined,
      dkimUntilReady: null,
      returnPathDomain: returnPath ? returnPath.name.toLowerCase().replace(/\.$/, "") : null,
      returnPathFrom: "carrier",
      spfPasses: ready && returnPath !== undefined,
    };
  }
  const bounceDomain = carrier === "smtp" ? config.BOUNCE_DOMAIN?.trim().toLowerCase() : undefined;
  return {
    carrier,
    dkimDomain: domain.hostname,
    dkimPasses: ready,
    dkimUntilReady: carrier === "smtp" ? (config.DKIM_DOMAIN?.trim().toLowerCase() ?? null) : null,
    returnPathDomain: bounceDomain ?? domain.hostname,
    returnPathFrom: bounceDomain ? "bounce_domain" : "from_address",
    spfPasses: bounceDomain
      ? null
      : domain.records.some((record) => record.kind === "spf" && record.status === "found"),
  };
}

/** Where the signing and return-path domains come from on this installation, in the dashboard's words. */
export function sendingIdentityNote(identity: SendingIdentity): string {
  if (identity.carrier === "resend")
    return "This installation sends through Resend, which signs and takes bounces with the records it gave for the domain.";
  if (identity.carrier === "local")
    return "Mail goes to the test mailbox on this installation; through SMTP it would be signed with the domain's own DKIM key as shown.";
  const bounces =
    identity.returnPathFrom === "bounce_domain"
      ? `bounces go to ${identity.returnPathDomain} (BOUNCE_DOMAIN)`
      : "bounces go back to the From address's domain";
  return `This installation sends through SMTP: mail is signed with the domain's own DKIM key, and ${bounces}.`;
}
