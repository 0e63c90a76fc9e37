import { describe, expect, it } from "vitest";

import { judgeAlignment } from "./dmarc-alignment";
import {
  appliedPolicy,
  identifiersAlign,
  organizationalDomain,
  parseDmarcRecord,
  type DmarcLookup,
} from "./dmarc-policy";
import type { CheckedRecord, ExpectedRecord } from "./domain-records";
import { sendingIdentity, type SendingIdentity } from "./sending-identity";

const at = (record: string, name = "_dmarc.example.com"): DmarcLookup => ({ name, record });
const smtpReady: SendingIdentity = {
  carrier: "smtp",
  dkimDomain: "example.com",
  dkimPasses: true,
  dkimUntilReady: null,
  returnPathDomain: "example.com",
  returnPathFrom: "from_address",
  spfPasses: true,
};
const spfFound: CheckedRecord = {
  kind: "spf",
  type: "TXT",
  name: "example.com",
  value: "v=spf1 include:_spf.relay.test ~all",
  required: true,
  status: "found",
  found: [],
};

describe("DMARC alignment (RFC 7489 §3.1)", () => {
  it("relaxed alignment accepts a subdomain: d=mail.example.com and a return path at bounces.example.com align with From example.com", () => {
    expect(identifiersAlign("example.com", "mail.example.com", "relaxed")).toBe(true);
    expect(identifiersAlign("news.example.com", "bounces.example.com", "relaxed")).toBe(true);
    expect(identifiersAlign("example.com", "example.net", "relaxed")).toBe(false);
  });

  it("strict alignment refuses a subdomain: only the From domain itself aligns", () => {
    expect(identifiersAlign("example.com", "mail.example.com", "strict")).toBe(false);
    expect(identifiersAlign("example.com", "EXAMPLE.com.", "strict")).toBe(true);
  });

  it("the organizational domain comes from the Public Suffix List: news.example.co.uk is under example.co.uk, and other.co.uk is not", () => {
    expect(organizationalDomain("news.example.co.uk")).toBe("example.co.uk");
    expect(organizationalDomain("mail.example.com")).toBe("example.com");
    expect(identifiersAlign("news.example.co.uk", "bounces.example.co.uk", "relaxed")).toBe(true);
    // co.uk is a public suffix: two registrations under it are two organizations.
    expect(identifiersAlign("example.co.uk", "other.co.uk", "relaxed")).toBe(false);
  });

  it("adkim and aspf are relaxed unless s is written, and a record without a valid p= is no policy", () => {
    expect(parseDmarcRecord("v=DMARC1; p=reject")).toEqual({
      policy: "reject",
      subdomainPolicy: null,
      adkim: "relaxed",
      aspf: "relaxed",
    });
    expect(parseDmarcRecord("v=DMARC1;p=quarantine;adkim=s;aspf=S;sp=none")).toEqual({
      policy: "quarantine",
      subdomainPolicy: "none",
      adkim: "strict",
      aspf: "strict",
    });
    expect(parseDmarcRecord("v=DMARC1; rua=mailto:r@example.com")).toBeNull();
    expect(parseDmarcRecord("v=spf1 -all")).toBeNull();
  });

  it("a record found at the organizational domain applies its sp= to a subdomain's mail", () => {
    const lookup = at("v=DMARC1; p=reject; sp=quarantine", "_dmarc.example.com");
    expect(appliedPolicy("news.example.com", lookup, parseDmarcRecord(lookup.record!)!)).toBe("quarantine");
    expect(appliedPolicy("example.com", lookup, parseDmarcRecord(lookup.record!)!)).toBe("reject");
  });

  it("no DMARC record: the policy fails and says to publish one at _dmarc.<domain>", () => {
    const report = judgeAlignment("news.example.co.uk", { name: null, record: null }, smtpReady);
    expect(report.policy.status).toBe("fail");
    expect(report.policy.summary).toBe(
      "No DMARC record at _dmarc.news.example.co.uk, nor at _dmarc.example.co.uk for the whole of example.co.uk.",
    );
    expect(report.policy.advice).toContain("Publish one at _dmarc.news.example.co.uk: v=DMARC1; p=none");
    expect(report.dmarcPasses).toBe(false);
  });

  it("DMARC passes when either identifier aligns with a pass, and both are shown", () => {
    const report = judgeAlignment("example.com", at("v=DMARC1; p=none"), {
      ...smtpReady,
      returnPathDomain: "bounces.mailservice.test",
      returnPathFrom: "bounce_domain",
      spfPasses: null,
    });
    expect(report.dkim.status).toBe("pass");
    expect(report.spf.status).toBe("fail");
    expect(report.dmarcPasses).toBe(true);
    expect(report.policy.advice).toContain("move to p=quarantine");
  });
});

describe("what to change when an identifier does not align", () => {
  it("adkim=s with a subdomain's signature says d= must be the From domain exactly and names the d= the service signs with", () => {
    const report = judgeAlignment("example.com", at("v=DMARC1; p=reject; adkim=s"), {
      ...smtpReady,
      dkimDomain: "mail.example.com",
    });
    expect(report.dkim).toMatchObject({ status: "fail", mode: "strict" });
    expect(report.dkim.advice).toBe(
      "adkim=s requires d=example.com exactly; the service signs with d=mail.example.com. Remove adkim=s from _dmarc.example.com (relaxed is the default), or send from an address at mail.example.com.",
    );
  });

  it("aspf=s with the carrier's return path at a subdomain says to relax SPF alignment, DKIM still carrying DMARC", () => {
    const report = judgeAlignment("example.com", at("v=DMARC1; p=reject; aspf=s"), {
      ...smtpReady,
      carrier: "resend",
      returnPathDomain: "send.example.com",
      returnPathFrom: "carrier",
    });
    expect(report.spf.status).toBe("fail");
    expect(report.spf.advice).toBe(
      "aspf=s requires the return path at example.com exactly; the service's is at send.example.com. Remove aspf=s from _dmarc.example.com (relaxed is the default): DMARC can still pass on DKIM alone.",
    );
    expect(report.dmarcPasses).toBe(true);
  });

  it("a bounce domain outside the sender's organization cannot align SPF: says so, and how to put the return path at bounces.<domain>", () => {
    const report = judgeAlignment("example.com", at("v=DMARC1; p=none"), {
      ...smtpReady,
      returnPathDomain: "bounces.mailservice.test",
      returnPathFrom: "bounce_domain",
      spfPasses: null,
    });
    expect(report.spf.summary).toBe(
      "The return path (bounce address) is at bounces.mailservice.test, which does not align with example.com (relaxed).",
    );
    expect(report.spf.advice).toContain("BOUNCE_DOMAIN=bounces.mailservice.test");
    expect(report.spf.advice).toContain("set BOUNCE_DOMAIN to bounces.example.com");
    expect(report.spf.advice).toContain("CNAME bounces.example.com → bounces.mailservice.test");
  });

  it("a return path at the From domain aligns, but without the SPF record published SPF fails and the fix is to publish it", () => {
    const report = judgeAlignment("example.com", at("v=DMARC1; p=none"), { ...smtpReady, spfPasses: false });
    expect(report.spf.status).toBe("fail");
    expect(report.spf.advice).toContain("Publish the SPF record above");
  });

  it("before the domain is ready its own signature is waiting, and the installation's key that signs meanwhile is said not to align", () => {
    const report = judgeAlignment("example.com", at("v=DMARC1; p=none"), {
      ...smtpReady,
      dkimPasses: false,
      dkimUntilReady: "mailservice.test",
    });
    expect(report.dkim.status).toBe("waiting");
    expect(report.dkim.advice).toBe(
      "Publish the records above and check again. Until then mail from it is signed with d=mailservice.test, which does not align.",
    );
  });
});

describe("which domains the service signs and bounces with", () => {
  const domain = {
    hostname: "example.com",
    state: "ready" as const,
    records: [spfFound],
    carrierRecords: [] as ExpectedRecord[],
  };

  it("SMTP signs with the domain's own key (d=<hostname>) and bounces to BOUNCE_DOMAIN when set, else the From address", () => {
    const withBounces = sendingIdentity(domain, {
      MAIL_TRANSPORT: "smtp",
      BOUNCE_DOMAIN: "bounces.mailservice.test",
      DKIM_DOMAIN: "mailservice.test",
    });
    expect(withBounces).toMatchObject({
      dkimDomain: "example.com",
      dkimPasses: true,
      dkimUntilReady: "mailservice.test",
      returnPathDomain: "bounces.mailservice.test",
      returnPathFrom: "bounce_domain",
    });
    expect(
      sendingIdentity(domain, { MAIL_TRANSPORT: "smtp", BOUNCE_DOMAIN: undefined, DKIM_DOMAIN: undefined }),
    ).toMatchObject({ returnPathDomain: "example.com", returnPathFrom: "from_address", spfPasses: true });
  });

  it("the local mailbox stores mail with the From address as its envelope sender, whatever BOUNCE_DOMAIN says", () => {
    expect(
      sendingIdentity(domain, {
        MAIL_TRANSPORT: "local",
        BOUNCE_DOMAIN: "bounces.mailservice.test",
        DKIM_DOMAIN: undefined,
      }),
    ).toMatchObject({ carrier: "local", returnPathDomain: "example.com", dkimUntilReady: null });
  });

  it("Resend's d= and return path are read from the records it gave: resend._domainkey.<hostname> and send.<hostname>", () => {
    const carrierRecords: ExpectedRecord[] = [
      { kind: "return_path", type: "MX", name: "send.example.com", value: "feedback-smtp.resend.test", required: true },
      { kind: "dkim", type: "TXT", name: "resend._domainkey.example.com", value: "p=AAAA", required: true },
    ];
    const env = {
      MAIL_TRANSPORT: "resend" as const,
      BOUNCE_DOMAIN: "bounces.mailservice.test",
      DKIM_DOMAIN: undefined,
    };
    expect(sendingIdentity({ ...domain, carrierRecords }, env)).toMatchObject({
      dkimDomain: "example.com",
      returnPathDomain: "send.example.com",
      returnPathFrom: "carrier",
    });
    const before = judgeAlignment(
      "example.com",
      at("v=DMARC1; p=none"),
      sendingIdentity({ ...domain, state: "pending" }, env),
    );
    expect([before.dkim.status, before.spf.status]).toEqual(["waiting", "waiting"]);
  });
});
