import { Resolver } from "node:dns/promises";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { mailboxDomains, sends } from "@/lib/db/schema";
import { startDnsServer } from "@/lib/testing/dns-server";
import { seedProviderCampaign } from "@/lib/testing/provider-campaign";
import { testCtx } from "@/lib/testing/test-context";

import { classifyDomains, MX_CACHE_TTL_MS, type MxLookup } from "./mailbox-provider";

const { ctx, clock } = testCtx();
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let lookupMx: MxLookup;
let lookups: string[];

// A real DNS server on loopback is the only one asked: nothing leaves the machine.
beforeAll(async () => {
  dns = await startDnsServer();
  const resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([dns.server]);
  lookups = [];
  lookupMx = (domain) => {
    lookups.push(domain);
    return resolver.resolveMx(domain);
  };
});
afterAll(() => dns.close());

describe("mailbox providers", () => {
  it("recipients are grouped by the provider of their domain's MX hosts: Google, Microsoft 365, Yahoo, iCloud, else other", async () => {
    dns.set("acme-gw.com", [
      { type: "MX", exchange: "aspmx.l.google.com", priority: 1 },
      { type: "MX", exchange: "alt1.aspmx.l.google.com", priority: 5 },
    ]);
    dns.set("contoso-ms.com", [{ type: "MX", exchange: "contoso-ms-com.mail.protection.outlook.com", priority: 0 }]);
    dns.set("ymail-hosted.net", [{ type: "MX", exchange: "mta5.am0.yahoodns.net", priority: 1 }]);
    dns.set("fruit-hosted.org", [{ type: "MX", exchange: "mx01.mail.icloud.com", priority: 10 }]);
    dns.set("own-server.io", [{ type: "MX", exchange: "mail.own-server.io", priority: 10 }]);
    const decided = await classifyDomains(
      ctx,
      ["acme-gw.com", "Contoso-MS.com", "ymail-hosted.net", "fruit-hosted.org", "own-server.io"],
      lookupMx,
    );
    expect(Object.fromEntries(decided)).toEqual({
      "acme-gw.com": "gmail",
      "contoso-ms.com": "microsoft",
      "ymail-hosted.net": "yahoo",
      "fruit-hosted.org": "apple",
      "own-server.io": "other",
    });
  });

  it("an answer is cached with its time and asked again only after the TTL", async () => {
    dns.set("cached-gw.com", [{ type: "MX", exchange: "aspmx.l.google.com", priority: 1 }]);
    await classifyDomains(ctx, ["cached-gw.com"], lookupMx);
    dns.set("cached-gw.com", [{ type: "MX", exchange: "cached-gw-com.mail.protection.outlook.com", priority: 1 }]);
    const before = lookups.length;
    expect((await classifyDomains(ctx, ["cached-gw.com"], lookupMx)).get("cached-gw.com")).toBe("gmail");
    expect(lookups.length).toBe(before);
    clock.advance(MX_CACHE_TTL_MS + 1000);
    expect((await classifyDomains(ctx, ["cached-gw.com"], lookupMx)).get("cached-gw.com")).toBe("microsoft");
    const [row] = await ctx.db.select().from(mailboxDomains).where(eq(mailboxDomains.domain, "cached-gw.com"));
    expect(row).toMatchObject({ provider: "microsoft", source: "mx" });
  });

  it("when the MX lookup fails, the known-domain list decides, and an unknown domain is other", async () => {
    // gmail.com and hotmail.com have no records on this server: the lookup fails (NXDOMAIN).
    const decided = await classifyDomains(
      ctx,
      ["gmail.com", "hotmail.com", "icloud.com", "nowhere-at-all.com"],
      lookupMx,
    );
    expect(Object.fromEntries(decided)).toEqual({
      "gmail.com": "gmail",
      "hotmail.com": "microsoft",
      "icloud.com": "apple",
      "nowhere-at-all.com": "other",
    });
    const rows = await ctx.db
      .select({ domain: mailboxDomains.domain, source: mailboxDomains.source })
      .from(mailboxDomains)
      .where(sql`${mailboxDomains.domain} in ('gmail.com', 'nowhere-at-all.com')`);
    expect(Object.fromEntries(rows.map((row) => [row.domain, row.source]))).toEqual({
      "gmail.com": "list",
      "nowhere-at-all.com": "none",
    });
    const timedOut = await classifyDomains(ctx, ["slow-dns.com"], async () => {
      throw Object.assign(new Error("queryMx ETIMEOUT slow-dns.com"), { code: "ETIMEOUT" });
    });
    expect(timedOut.get("slow-dns.com")).toBe("other");
    expect(await ctx.db.select().from(mailboxDomains).where(eq(mailboxDomains.domain, "slow-dns.com"))).toEqual([]);
  });

  it("domains reserved for examples and tests are never looked up", async () => {
    const before = lookups.length;
    const decided = await classifyDomains(ctx, ["example.com", "shop.example", "mail.test"], lookupMx);
    expect([...decided.values()]).toEqual(["other", "other", "other"]);
    expect(lookups.length).toBe(before);
  });

  it("the snapshot records each send's provider, from the cache or the known-domain list", async () => {
    await classifyDomains(ctx, ["acme-gw.com"], lookupMx);
    const { campaignId } = await seedProviderCampaign(ctx, {
      "gmail.com": 2,
      "outlook.com": 2,
      "yahoo.com": 1,
      "me.com": 1,
      "acme-gw.com": 1,
      "shop.example": 1,
    });
    const rows = await ctx.db.execute<{ provider: string; n: number }>(
      sql`select provider, count(*)::int as n from ${sends} where campaign_id = ${campaignId} group by 1 order by 1`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.provider, Number(row.n)]))).toEqual({
      apple: 1,
      gmail: 3,
      microsoft: 2,
      other: 1,
      yahoo: 1,
    });
  });
});
