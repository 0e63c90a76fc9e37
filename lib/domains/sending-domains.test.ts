import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { approveBrand } from "@/lib/brands/approve-brand";
import { updateBrand } from "@/lib/brands/update-brand";
import { buildBatch } from "@/lib/campaigns/build-batch";
import { brands, campaigns, sendingDomains, sends } from "@/lib/db/schema";
import { overrideEnvForTests, parseEnv, reloadEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { smtpTransport } from "@/lib/mail/transports/smtp-transport";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { startDnsServer, type ZoneRecord } from "@/lib/testing/dns-server";
import { seedWorkspace } from "@/lib/testing/factories";
import { startSmtpCapture } from "@/lib/testing/smtp-sink";
import { testCtx } from "@/lib/testing/test-context";
import { getSetupChecklist } from "@/lib/workspaces/get-setup-checklist";

import { domainResolver } from "./check-domain-dns";
import { decryptPrivateKey, encryptPrivateKey, generateDkimKeyPair } from "./dkim-keys";
import { domainCarrier, type DomainCarrier } from "./domain-carrier";
import { recheckSendingDomains } from "./recheck-sending-domains";
import {
  addSendingDomain,
  checkSendingDomain,
  expectedRecords,
  getSendingDomainOrThrow,
  listSendingDomains,
} from "./sending-domains";

const { ctx } = testCtx();
let dns: Awaited<ReturnType<typeof startDnsServer>>;
const smtp: DomainCarrier = { name: "smtp", register: async () => ({ status: "registered" }) };
const resolver = () => domainResolver(parseEnv({ DNS_SERVERS: dns.server }));

beforeAll(async () => {
  // As an SMTP install sets it: with APP_URL on localhost no SPF include could be worked out (domain-records.test.ts).
  overrideEnvForTests({ SPF_INCLUDE: "_spf.relay.test" });
  dns = await startDnsServer();
});
afterAll(async () => {
  reloadEnv();
  await dns.close();
});

/** Publishes every record the domain asks for, as a sender would at their DNS host (each name's records together). */
function publish(records: { type: string; name: string; value: string; priority?: number }[]) {
  const byName = new Map<string, ZoneRecord[]>();
  for (const record of records) {
    const zone = byName.get(record.name) ?? [];
    if (record.type === "TXT") zone.push({ type: "TXT", data: [record.value] });
    if (record.type === "MX") zone.push({ type: "MX", exchange: record.value, priority: record.priority ?? 10 });
    byName.set(record.name, zone);
  }
  for (const [name, zone] of byName) dns.set(name, zone);
}

async function domainFor(hostname: string, carrier: DomainCarrier = smtp) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  const actor = systemActor("test", workspaceId);
  const { domainId } = await addSendingDomain(ctx, actor, { brandId, hostname }, { resolver: resolver(), carrier });
  return { workspaceId, brandId, actor, domainId, domain: await getSendingDomainOrThrow(ctx, actor, domainId) };
}

describe("sending domains", () => {
  it("a new domain gets a DKIM key pair, the private key encrypted at rest, and its records are shown missing until published", async () => {
    const { domain, brandId } = await domainFor("mail.acme-one.test");
    expect(domain.state).toBe("pending");
    expect(domain.dkimPrivateKey).not.toContain("PRIVATE KEY");
    expect(decryptPrivateKey(domain.dkimPrivateKey)).toContain("BEGIN PRIVATE KEY");
    expect(domain.records.map((record) => [record.kind, record.type, record.name, record.status])).toEqual([
      ["spf", "TXT", "mail.acme-one.test", "missing"],
      ["dkim", "TXT", `${domain.dkimSelector}._domainkey.mail.acme-one.test`, "missing"],
      ["dmarc", "TXT", "_dmarc.mail.acme-one.test", "missing"],
    ]);
    expect(
      (await ctx.db.select({ domainId: brands.domainId }).from(brands).where(eq(brands.id, brandId)))[0]!.domainId,
    ).toBe(domain.id);
  });

  it("a new domain starts its warm-up; a domain from before warm-up existed is taken as warmed (warm-up off)", async () => {
    const { domain, workspaceId } = await domainFor("mail.acme-warm.test");
    expect(domain.warmUp).toBe(true);
    // Rows that were there when the column came took its default.
    const { publicKey, privateKeyPem } = generateDkimKeyPair();
    const [older] = await ctx.db
      .insert(sendingDomains)
      .values({
        id: newId("dom"),
        workspaceId,
        hostname: "old.acme-warm.test",
        dkimSelector: "old",
        dkimPublicKey: publicKey,
        dkimPrivateKey: encryptPrivateKey(privateKeyPem),
      })
      .returning();
    expect(older!.warmUp).toBe(false);
  });

  it("verification: each record found, missing or wrong (showing what was found), a multi-string TXT joined, and ready once all are published and registered", async () => {
    const { actor, domainId, domain, workspaceId } = await domainFor("mail.acme-two.test");
    const [spf, dkim, dmarc] = expectedRecords(domain, "smtp");
    dns.set(spf!.name, [
      { type: "TXT", data: ["google-site-verification=abc"] },
      { type: "TXT", data: ["v=spf1 include:other.example ~all"] },
    ]);
    // A long DKIM key arrives split into several strings: joined, it matches.
    const half = Math.floor(dkim!.value.length / 2);
    dns.set(dkim!.name, [{ type: "TXT", data: [dkim!.value.slice(0, half), dkim!.value.slice(half)] }]);
    let checked = await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp });
    expect(checked.records.map((record) => [record.kind, record.status])).toEqual([
      ["spf", "wrong"],
      ["dkim", "found"],
      ["dmarc", "missing"],
    ]);
    expect(checked.records[0]!.found).toEqual(["v=spf1 include:other.example ~all"]);
    expect(checked.state).toBe("pending");
    expect((await getSetupChecklist(ctx, { ...actor, workspaceId })).domain).toBe(false);

    dns.set(spf!.name, [{ type: "TXT", data: [spf!.value.toUpperCase().replace("V=SPF1", "v=spf1")] }]);
    dns.set(dmarc!.name, [{ type: "TXT", data: ["v=DMARC1; p=quarantine"] }]); // the sender's own policy is accepted
    checked = await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp });
    expect(checked.records.map((record) => record.status)).toEqual(["found", "found", "found"]);
    expect(checked).toMatchObject({
      state: "ready",
      carrierStatus: "registered",
      carrier: "smtp",
      dnsVerifiedAt: expect.any(Date),
    });
    expect((await getSetupChecklist(ctx, { ...actor, workspaceId })).domain).toBe(true);
  });

  it("a record that disappears after verification flags the domain records_missing until it is back", async () => {
    const { actor, domainId, domain } = await domainFor("mail.acme-three.test");
    publish(expectedRecords(domain, "smtp"));
    expect((await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp })).state).toBe(
      "ready",
    );
    const dkimName = expectedRecords(domain, "smtp")[1]!.name;
    dns.remove(dkimName);
    // The daily re-check finds it.
    expect(await recheckSendingDomains(ctx, { resolver: resolver(), carrier: smtp })).toMatchObject({
      recordsMissing: 1,
    });
    const flagged = await getSendingDomainOrThrow(ctx, actor, domainId);
    expect(flagged.state).toBe("records_missing");
    expect(flagged.records.find((record) => record.kind === "dkim")!.status).toBe("missing");
    publish(expectedRecords(domain, "smtp"));
    expect((await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp })).state).toBe(
      "ready",
    );
  });

  it("two SPF records at one name are wrong even if one of them is right (SPF fails on two)", async () => {
    const { actor, domainId, domain } = await domainFor("mail.acme-four.test");
    publish(expectedRecords(domain, "smtp"));
    const spf = expectedRecords(domain, "smtp")[0]!;
    dns.set(spf.name, [
      { type: "TXT", data: [spf.value] },
      { type: "TXT", data: ["v=spf1 -all"] },
    ]);
    expect(
      (await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp })).records[0]!.status,
    ).toBe("wrong");
  });

  it("a domain's brands say whether their sender address is at it: news@brand.example.com is not at mail.acme-six.test", async () => {
    const { actor, brandId, domainId } = await domainFor("mail.acme-six.test");
    const listed = async () => (await listSendingDomains(ctx, actor)).find((domain) => domain.id === domainId)!.brands;
    expect(await listed()).toEqual([
      expect.objectContaining({
        id: brandId,
        senderEmail: expect.stringMatching(/@brand\.example\.com$/),
        senderAtDomain: false,
      }),
    ]);
    await updateBrand(ctx, actor, brandId, { senderEmail: "news@Mail.Acme-Six.test" });
    expect(await listed()).toEqual([expect.objectContaining({ id: brandId, senderAtDomain: true })]);
  });

  it("a free-mail provider's domain cannot be added: its DNS is not the workspace's to publish", async () => {
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const actor = systemActor("test", workspaceId);
    await expect(
      addSendingDomain(ctx, actor, { brandId, hostname: "gmail.com" }, { resolver: resolver(), carrier: smtp }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      param: "hostname",
    });
  });

  it("a domain of another workspace is not found; a bad hostname is refused on its field", async () => {
    const { domainId } = await domainFor("mail.acme-five.test");
    const { workspaceId, brandId } = await seedWorkspace(ctx);
    const other = systemActor("test", workspaceId);
    await expect(getSendingDomainOrThrow(ctx, other, domainId)).rejects.toMatchObject({ code: "domain_not_found" });
    await expect(
      checkSendingDomain(ctx, other, domainId, { resolver: resolver(), carrier: smtp }),
    ).rejects.toMatchObject({ code: "domain_not_found" });
    await expect(
      addSendingDomain(ctx, other, { brandId, hostname: "not a domain" }, { resolver: resolver(), carrier: smtp }),
    ).rejects.toMatchObject({ code: "validation_failed", param: "hostname" });
  });
});

describe("registration with Resend (a local server speaking Resend's API)", () => {
  let server: Server;
  const state = { failCreate: true, status: "pending" as string, calls: [] as string[] };
  const records = (id: string) => [
    {
      record: "SPF",
      name: "send",
      type: "MX",
      ttl: "Auto",
      status: "pending",
      value: "feedback-smtp.us-east-1.amazonses.com",
      priority: 10,
    },
    {
      record: "SPF",
      name: "send",
      type: "TXT",
      ttl: "Auto",
      status: "pending",
      value: "v=spf1 include:amazonses.com ~all",
    },
    {
      record: "DKIM",
      name: "resend._domainkey",
      type: "TXT",
      ttl: "Auto",
      status: "pending",
      value: `p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${id}`,
    },
  ];
  beforeAll(async () => {
    server = createServer((request, response) => {
      state.calls.push(`${request.method} ${request.url}`);
      const answer = (status: number, body: unknown) =>
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      request.resume();
      request.on("end", () => {
        if (request.method === "POST" && request.url === "/domains") {
          if (state.failCreate)
            return answer(422, { name: "validation_error", message: "The domain is on a blocklist.", statusCode: 422 });
          return answer(200, {
            id: "d_123",
            name: "mail.acme-resend.test",
            status: "not_started",
            created_at: new Date().toISOString(),
            region: "us-east-1",
            records: records("AB"),
          });
        }
        if (request.method === "POST" && request.url === "/domains/d_123/verify")
          return answer(200, { object: "domain", id: "d_123" });
        if (request.method === "GET" && request.url === "/domains/d_123") {
          return answer(200, {
            object: "domain",
            id: "d_123",
            name: "mail.acme-resend.test",
            status: state.status,
            created_at: new Date().toISOString(),
            region: "us-east-1",
            records: records("AB"),
          });
        }
        answer(404, { name: "not_found", message: "Not found", statusCode: 404 });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete process.env.RESEND_BASE_URL;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("Resend is not asked for a domain until the workspace has published the domain's ownership record: no member claims a hostname in the service's Resend account without holding its DNS", async () => {
    Object.assign(state, { failCreate: false, status: "pending", calls: [] });
    const resend = domainCarrier(parseEnv({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_123" }));
    const { actor, domainId, domain: added } = await domainFor("mail.acme-claimed.test", resend);
    expect(added).toMatchObject({ state: "pending", carrierStatus: "not_registered", carrierDomainId: null });
    expect(added.records.map((record) => [record.kind, record.type, record.name, record.status])).toEqual([
      ["ownership", "TXT", "_mailservice.mail.acme-claimed.test", "missing"],
      ["dmarc", "TXT", "_dmarc.mail.acme-claimed.test", "missing"],
    ]);
    const [ownership] = expectedRecords(added, "resend");
    // A re-sync does not skip the proof, nor does another workspace's token for the same hostname.
    await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: resend }, { reregister: true });
    const other = await domainFor("mail.acme-claimed.test", resend);
    publish(expectedRecords(other.domain, "resend").slice(0, 1));
    await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: resend });
    expect(state.calls).toEqual([]);
    expect(
      (await checkSendingDomain(ctx, other.actor, other.domainId, { resolver: resolver(), carrier: resend }))
        .carrierDomainId,
    ).toBe("d_123");
    state.calls = [];

    publish([ownership!]);
    const domain = await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: resend });
    expect(state.calls.filter((call) => call === "POST /domains")).toHaveLength(1);
    expect(domain).toMatchObject({ carrierDomainId: "d_123", carrierStatus: "pending", state: "pending" });
    expect(domain.records.map((record) => record.kind)).toEqual(["return_path", "return_path", "dkim", "dmarc"]);
  });

  it("a refused registration is registration_failed with Resend's words; a re-sync that succeeds shows Resend's records, and once published and verified by Resend the domain is ready", async () => {
    Object.assign(state, { failCreate: true, status: "pending", calls: [] });
    const resend = domainCarrier(parseEnv({ MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_test_123" }));
    const { actor, domainId } = await domainFor("mail.acme-resend.test", resend);
    publish(expectedRecords(await getSendingDomainOrThrow(ctx, actor, domainId), "resend")); // its ownership record and DMARC
    let domain = await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: resend });
    expect(domain).toMatchObject({
      carrierStatus: "failed",
      carrierError: expect.stringContaining("The domain is on a blocklist."),
    });
    expect(domain.state).toBe("registration_failed");

    state.failCreate = false;
    domain = await checkSendingDomain(
      ctx,
      actor,
      domainId,
      { resolver: resolver(), carrier: resend },
      { reregister: true },
    );
    expect(domain.carrierDomainId).toBe("d_123");
    expect(domain.records.map((record) => [record.type, record.name])).toEqual([
      ["MX", "send.mail.acme-resend.test"],
      ["TXT", "send.mail.acme-resend.test"],
      ["TXT", "resend._domainkey.mail.acme-resend.test"],
      ["TXT", "_dmarc.mail.acme-resend.test"],
    ]);
    publish(expectedRecords(domain, "resend"));
    domain = await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: resend });
    expect(domain).toMatchObject({ state: "verified", carrierStatus: "pending" }); // DNS is right, Resend is still checking
    state.status = "verified";
    domain = await checkSendingDomain(
      ctx,
      actor,
      domainId,
      { resolver: resolver(), carrier: resend },
      { reregister: true },
    );
    expect(domain).toMatchObject({ state: "ready", carrierStatus: "registered", carrierError: null });
    expect(state.calls.filter((call) => call === "POST /domains")).toHaveLength(2); // the refused one and the one that took
  });
});

describe("DKIM with the domain's own key", () => {
  it("a campaign mail through the SMTP transport verifies with mailauth against the public key the test DNS server serves", async () => {
    const { workspaceId, campaignId, send } = await seedAcceptedSend(ctx, "dkim-reader@example.com");
    const actor = systemActor("test", workspaceId);
    const [brand] = await ctx.db
      .select()
      .from(brands)
      .where(
        eq(
          brands.id,
          (await ctx.db.select({ brandId: campaigns.brandId }).from(campaigns).where(eq(campaigns.id, campaignId)))[0]!
            .brandId,
        ),
      );
    await updateBrand(ctx, actor, brand!.id, { senderEmail: "news@mail.acme-dkim.test" });
    const { domainId } = await addSendingDomain(
      ctx,
      actor,
      { brandId: brand!.id, hostname: "mail.acme-dkim.test" },
      { resolver: resolver(), carrier: smtp },
    );
    publish(expectedRecords(await getSendingDomainOrThrow(ctx, actor, domainId), "smtp"));
    expect((await checkSendingDomain(ctx, actor, domainId, { resolver: resolver(), carrier: smtp })).state).toBe(
      "ready",
    );
    await approveBrand(ctx, actor, brand!.id); // the new sender address was an identity edit: reviewed again

    const [campaign] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    const [row] = await ctx.db.select().from(sends).where(eq(sends.id, send.id));
    const { messages } = await buildBatch(ctx, campaign!, [
      { id: row!.id, contact_id: row!.contactId, email: row!.email },
    ] as never);
    expect(messages[0]!.dkim).toMatchObject({ domainName: "mail.acme-dkim.test" });

    const carrier = await startSmtpCapture();
    const transport = smtpTransport({ url: carrier.url });
    await transport.send(ctx, messages[0]!);
    await transport.close();
    await carrier.close();

    const lookup = domainResolver(parseEnv({ DNS_SERVERS: dns.server }));
    const result = await dkimVerify(carrier.received[0]!.raw, {
      resolver: async (name: string, type: string) =>
        type === "TXT"
          ? lookup.resolveTxt(name)
          : Promise.reject(Object.assign(new Error(`no ${type}`), { code: "ENOTFOUND" })),
    });
    expect(result.results[0]).toMatchObject({ signingDomain: "mail.acme-dkim.test", status: { result: "pass" } });
    expect(
      (
        await ctx.db.select({ state: sendingDomains.state }).from(sendingDomains).where(eq(sendingDomains.id, domainId))
      )[0]!.state,
    ).toBe("ready");
  });
});
