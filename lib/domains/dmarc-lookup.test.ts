import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { parseEnv } from "@/lib/env";
import { startDnsServer } from "@/lib/testing/dns-server";
import { seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { domainResolver, findDmarcPolicy } from "./check-domain-dns";
import { judgeAlignment } from "./dmarc-alignment";
import type { DomainCarrier } from "./domain-carrier";
import { addSendingDomain, checkSendingDomain } from "./sending-domains";
import { sendingIdentity } from "./sending-identity";

// A real DNS server on loopback answers every lookup: nothing here reaches the network.
const { ctx } = testCtx();
let dns: Awaited<ReturnType<typeof startDnsServer>>;
const resolver = () => domainResolver(parseEnv({ DNS_SERVERS: dns.server }));
const smtp: DomainCarrier = { name: "smtp", register: async () => ({ status: "registered" }) };

beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

describe("the DMARC record receivers apply (RFC 7489 §6.6.3)", () => {
  it("is the one at _dmarc.<From domain> when it has one", async () => {
    dns.set("_dmarc.news.own.co.uk", [{ type: "TXT", data: ["v=DMARC1; p=quarantine; adkim=s"] }]);
    dns.set("_dmarc.own.co.uk", [{ type: "TXT", data: ["v=DMARC1; p=reject"] }]);
    expect(await findDmarcPolicy("news.own.co.uk", resolver())).toEqual({
      name: "_dmarc.news.own.co.uk",
      record: "v=DMARC1; p=quarantine; adkim=s",
    });
  });

  it("else the organizational domain's, found through the Public Suffix List (news.example.co.uk → _dmarc.example.co.uk)", async () => {
    dns.set("_dmarc.example.co.uk", [
      { type: "TXT", data: ["some-other-verification=1"] },
      { type: "TXT", data: ["v=DMARC1; p=reject; sp=quarantine"] },
    ]);
    expect(await findDmarcPolicy("news.example.co.uk", resolver())).toEqual({
      name: "_dmarc.example.co.uk",
      record: "v=DMARC1; p=reject; sp=quarantine",
    });
    // co.uk is a public suffix, never asked.
    dns.set("_dmarc.co.uk", [{ type: "TXT", data: ["v=DMARC1; p=reject"] }]);
    expect(await findDmarcPolicy("lonely.co.uk", resolver())).toEqual({ name: null, record: null });
  });

  it("two DMARC records at one name are no policy: the lookup goes on to the organizational domain", async () => {
    dns.set("_dmarc.twice.example.org", [
      { type: "TXT", data: ["v=DMARC1; p=none"] },
      { type: "TXT", data: ["v=DMARC1; p=reject"] },
    ]);
    expect(await findDmarcPolicy("twice.example.org", resolver())).toEqual({ name: null, record: null });
  });

  it("a check stores what it found, and the alignment read from it says to publish a record when there is none", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    const { domainId } = await addSendingDomain(
      ctx,
      actor,
      { brandId, hostname: "mail.nodmarc.test" },
      { resolver: resolver(), carrier: smtp },
    );
    let domain = await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp });
    expect(domain.dmarcLookup).toEqual({ name: null, record: null });
    expect(judgeAlignment(domain.hostname, domain.dmarcLookup, sendingIdentity(domain)).policy.advice).toMatch(
      /^Publish one at _dmarc\.mail\.nodmarc\.test: v=DMARC1; p=none/,
    );

    dns.set("_dmarc.nodmarc.test", [{ type: "TXT", data: ["v=DMARC1; p=reject; aspf=s"] }]);
    domain = await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp });
    expect(domain.dmarcLookup).toEqual({ name: "_dmarc.nodmarc.test", record: "v=DMARC1; p=reject; aspf=s" });
    expect(judgeAlignment(domain.hostname, domain.dmarcLookup, sendingIdentity(domain)).policy).toMatchObject({
      status: "pass",
      summary: "p=reject from _dmarc.nodmarc.test; DKIM alignment relaxed (adkim), SPF alignment strict (aspf).",
    });
  });
});
