// Whether a domain's mail passes DMARC as receivers judge it (RFC 7489 §3.1, §4.2), and what to
// change where it does not. No I/O: the DMARC record comes from the last check, the signing and
// return-path domains from sending-identity.ts. The words are the dashboard's.

import {
  appliedPolicy,
  identifiersAlign,
  organizationalDomain,
  parseDmarcRecord,
  type AlignmentMode,
  type DmarcLookup,
} from "./dmarc-policy";
import { dmarcPolicyName } from "./domain-records";
import type { SendingIdentity } from "./sending-identity";

/** pass: aligned and authenticated · fail: it will not pass as things are · waiting: it will once the domain is ready. */
export type AlignmentStatus = "pass" | "fail" | "waiting";

export interface AlignmentCheck {
  status: AlignmentStatus;
  /** What receivers see, in one sentence. */
  summary: string;
  /** What to change, or what comes next; null when nothing. */
  advice: string | null;
}

export interface AlignmentReport {
  fromDomain: string;
  policy: AlignmentCheck;
  dkim: AlignmentCheck & { mode: AlignmentMode };
  spf: AlignmentCheck & { mode: AlignmentMode };
  /** DMARC passes when either identifier aligns with a pass (§4.2) under a published policy. */
  dmarcPasses: boolean;
  /** The identifiers it passes on, when it does. */
  passesOn: ("DKIM" | "SPF")[];
}

function policyCheck(fromDomain: string, lookup: DmarcLookup | null): AlignmentCheck {
  const own = dmarcPolicyName(fromDomain);
  const organization = organizationalDomain(fromDomain);
  if (!lookup)
    return {
      status: "waiting",
      summary: "The DMARC record has not been read yet.",
      advice: "Check the domain: each check reads its DMARC record.",
    };
  if (!lookup.record)
    return {
      status: "fail",
      summary:
        organization === fromDomain
          ? `No DMARC record at ${own}.`
          : `No DMARC record at ${own}, nor at ${dmarcPolicyName(organization)} for the whole of ${organization}.`,
      advice: `Publish one at ${own}: v=DMARC1; p=none; rua=mailto:dmarc-reports@${fromDomain} (the DMARC record above). Gmail and Yahoo require DMARC of bulk senders, and Outlook rejects bulk mail without it (550 5.7.515).`,
    };
  const policy = parseDmarcRecord(lookup.record);
  if (!policy)
    return {
      status: "fail",
      summary: `The record at ${lookup.name} has no valid p= tag: receivers apply no policy.`,
      advice: `Start it with v=DMARC1; p=none (or quarantine, or reject).`,
    };
  const applied = appliedPolicy(fromDomain, lookup, policy);
  const modes = `DKIM alignment ${policy.adkim} (adkim), SPF alignment ${policy.aspf} (aspf)`;
  return {
    status: "pass",
    summary: `p=${applied} from ${lookup.name}; ${modes}.`,
    advice:
      applied === "none"
        ? "p=none only asks for reports. Once they show your mail aligned, move to p=quarantine, then p=reject."
        : null,
  };
}

function dkimCheck(fromDomain: string, identity: SendingIdentity, mode: AlignmentMode, record: string): AlignmentCheck {
  const d = identity.dkimDomain;
  if (!d)
    return {
      status: "waiting",
      summary: "The carrier has not yet said which domain it signs with.",
      advice:
        "Publish the ownership record above and check again: the carrier's DKIM record appears once it has the domain.",
    };
  if (!identifiersAlign(fromDomain, d, mode)) {
    const relaxedWouldAlign = mode === "strict" && identifiersAlign(fromDomain, d, "relaxed");
    return {
      status: "fail",
      summary: `Signed with d=${d}, which does not align with ${fromDomain} (${mode}).`,
      advice: relaxedWouldAlign
        ? `adkim=s requires d=${fromDomain} exactly; the service signs with d=${d}. Remove adkim=s from ${record} (relaxed is the default), or send from an address at ${d}.`
        : `The signature must be by ${fromDomain} or a domain under ${organizationalDomain(fromDomain)}: send from an address at ${d}, or add ${fromDomain} as a sending domain.`,
    };
  }
  if (identity.dkimPasses)
    return { status: "pass", summary: `Signed with d=${d}, aligned with ${fromDomain} (${mode}).`, advice: null };
  const meanwhile = identity.dkimUntilReady
    ? `Until then mail from it is signed with d=${identity.dkimUntilReady}${identifiersAlign(fromDomain, identity.dkimUntilReady, mode) ? "" : ", which does not align"}.`
    : identity.carrier === "smtp"
      ? "Until then it goes unsigned."
      : "";
  return {
    status: "waiting",
    summary: `Mail will be signed with d=${d}, aligned with ${fromDomain} (${mode}), once the domain is ready.`,
    advice: `Publish the records above and check again. ${meanwhile}`.trim(),
  };
}

function spfCheck(fromDomain: string, identity: SendingIdentity, mode: AlignmentMode, record: string): AlignmentCheck {
  const rp = identity.returnPathDomain;
  if (!rp)
    return {
      status: "waiting",
      summary: "The carrier has not yet said which return path it sends with.",
      advice:
        "Publish the ownership record above and check again: the carrier's return-path records appear once it has the domain.",
    };
  const organization = organizationalDomain(fromDomain);
  if (!identifiersAlign(fromDomain, rp, mode)) {
    const summary = `The return path (bounce address) is at ${rp}, which does not align with ${fromDomain} (${mode}).`;
    if (mode === "strict" && identifiersAlign(fromDomain, rp, "relaxed"))
      return {
        status: "fail",
        summary,
        advice: `aspf=s requires the return path at ${fromDomain} exactly; the service's is at ${rp}. Remove aspf=s from ${record} (relaxed is the default): DMARC can still pass on DKIM alone.`,
      };
    return {
      status: "fail",
      summary,
      advice:
        identity.returnPathFrom === "bounce_domain"
          ? `This installation sends every sender's mail with its bounce domain (BOUNCE_DOMAIN=${rp}), so SPF cannot align and DMARC rests on DKIM. To align it too, the return path must be under ${organization}: where this installation sends for one organisation, set BOUNCE_DOMAIN to bounces.${fromDomain}, with an MX record there pointing to the bounce listener and an SPF record naming the relay (or a CNAME bounces.${fromDomain} → ${rp}, which carries both).`
          : `Set the return path to bounces.${fromDomain} (or another name under ${organization}) with a CNAME to the carrier's bounce domain, ${rp}.`,
    };
  }
  if (identity.spfPasses === false)
    return {
      status: identity.carrier === "resend" ? "waiting" : "fail",
      summary: `The return path is at ${rp}, aligned with ${fromDomain} (${mode}), but SPF does not pass there yet.`,
      advice:
        identity.carrier === "resend"
          ? "Publish the carrier's records above and check again."
          : "Publish the SPF record above, naming the servers that send for this installation (SPF_INCLUDE), and check again.",
    };
  return {
    status: "pass",
    summary: `The return path is at ${rp}, aligned with ${fromDomain} (${mode}).`,
    advice: identity.spfPasses === null ? `SPF passes when ${rp} publishes an SPF record naming the relay.` : null,
  };
}

/**
 * The domain's alignment as a receiver would judge its mail from an address at `fromDomain`: the
 * DMARC record's adkim/aspf (relaxed when absent), DKIM's d= and the return path's domain against
 * the From domain, each with what to change. Both are shown even when one suffices.
 */
export function judgeAlignment(
  fromDomain: string,
  lookup: DmarcLookup | null,
  identity: SendingIdentity,
): AlignmentReport {
  const from = fromDomain.trim().toLowerCase().replace(/\.$/, "");
  const policy = lookup?.record ? parseDmarcRecord(lookup.record) : null;
  const record = lookup?.name ?? dmarcPolicyName(from);
  const adkim = policy?.adkim ?? "relaxed";
  const aspf = policy?.aspf ?? "relaxed";
  const dkim = { ...dkimCheck(from, identity, adkim, record), mode: adkim };
  const spf = { ...spfCheck(from, identity, aspf, record), mode: aspf };
  const passing: ("DKIM" | "SPF")[] = [];
  if (policy && dkim.status === "pass") passing.push("DKIM");
  if (policy && spf.status === "pass") passing.push("SPF");
  return {
    fromDomain: from,
    policy: policyCheck(from, lookup),
    dkim,
    spf,
    dmarcPasses: passing.length > 0,
    passesOn: passing,
  };
}
