import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { Resolver } from "node:dns/promises";
import { inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands, sendingDomains, type DomainState } from "@/lib/db/schema";
import { notFound, validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { checkDomainDns, domainResolver } from "./check-domain-dns";
import { encryptPrivateKey, generateDkimKeyPair } from "./dkim-keys";
import { domainCarrier, type DomainCarrier } from "./domain-carrier";
import { dmarcRecord, ownRecords, spfInclude, type ExpectedRecord } from "./domain-records";

export type SendingDomain = typeof sendingDomains.$inferSelect;

/** What a check needs from outside: a resolver (DNS_SERVERS) and the carrier (MAIL_TRANSPORT). */
export interface DomainDeps {
  resolver?: Resolver;
  carrier?: DomainCarrier;
}

const HOSTNAME = /^(?=.{4,253}$)(?!-)([a-z0-9-]{1,63}(?<!-)\.)+[a-z]{2,63}$/;

/** The records to publish: ours (SPF, our DKIM key, DMARC), or with Resend the ones Resend gives, and DMARC. */
export function expectedRecords(domain: SendingDomain, carrierName: string): ExpectedRecord[] {
  if (carrierName === "resend") return [...domain.carrierRecords, dmarcRecord(domain.hostname)];
  return ownRecords(domain, spfInclude());
}

export async function getSendingDomain(ctx: Ctx, actor: Actor, domainId: string): Promise<SendingDomain> {
  const [domain] = await ctx.db
    .select()
    .from(sendingDomains)
    .where(and(eq(sendingDomains.id, domainId), inActorWorkspace(actor, sendingDomains.workspaceId)));
  if (!domain) throw notFound("domain_not_found", `No domain ${domainId}.`);
  return domain;
}

export async function listSendingDomains(ctx: Ctx, actor: Actor): Promise<(SendingDomain & { brands: { id: string; name: string }[] })[]> {
  const workspaceId = requireActorWorkspace(actor);
  const [domains, brandRows] = await Promise.all([
    ctx.db.select().from(sendingDomains).where(eq(sendingDomains.workspaceId, workspaceId)).orderBy(desc(sendingDomains.id)),
    ctx.db.select({ id: brands.id, name: brands.name, domainId: brands.domainId }).from(brands).where(eq(brands.workspaceId, workspaceId)),
  ]);
  return domains.map((domain) => ({ ...domain, brands: brandRows.filter((brand) => brand.domainId === domain.id).map(({ id, name }) => ({ id, name })) }));
}

/**
 * A brand's sending domain: a DKIM key pair is made for it (the private key
 * stored encrypted), the brand is pointed at it, and the records to publish
 * are worked out. A hostname the workspace already has is reused.
 */
export async function addSendingDomain(ctx: Ctx, actor: Actor, input: { brandId: string; hostname: string }, deps: DomainDeps = {}): Promise<{ domainId: string }> {
  const workspaceId = requireActorWorkspace(actor);
  const hostname = input.hostname.trim().toLowerCase().replace(/\.$/, "");
  if (!HOSTNAME.test(hostname)) throw validationFailed("hostname", "hostname: must be a domain name such as mail.example.com.");
  const domainId = await withTransaction(ctx, async (tx) => {
    await getBrandOrThrow(tx, actor, input.brandId);
    const [existing] = await tx.db
      .select({ id: sendingDomains.id })
      .from(sendingDomains)
      .where(and(eq(sendingDomains.workspaceId, workspaceId), eq(sendingDomains.hostname, hostname)));
    const id = existing?.id ?? newId("dom");
    if (!existing) {
      const { publicKey, privateKeyPem } = generateDkimKeyPair();
      await tx.db.insert(sendingDomains).values({
        id,
        workspaceId,
        hostname,
        dkimSelector: `ms${tx.clock.now().getUTCFullYear()}`,
        dkimPublicKey: publicKey,
        dkimPrivateKey: encryptPrivateKey(privateKeyPem),
        createdAt: tx.clock.now(),
      });
    }
    await tx.db
      .update(brands)
      .set({ domainId: id, updatedAt: tx.clock.now() })
      .where(and(eq(brands.id, input.brandId), eq(brands.workspaceId, workspaceId)));
    return id;
  });
  await checkSendingDomain(ctx, actor, domainId, deps);
  return { domainId };
}

/**
 * Checks the domain's records in DNS and moves it through its states:
 * all required records found → verified, then registered with the carrier
 * → ready (or registration_failed with the carrier's error); a required
 * record missing or wrong → pending, or records_missing once it had been
 * verified. `reregister` repeats the registration (re-sync).
 */
export async function checkSendingDomain(ctx: Ctx, actor: Actor, domainId: string, deps: DomainDeps = {}, options: { reregister?: boolean } = {}): Promise<SendingDomain> {
  // One check at a time per domain (the daily re-check and a click): two would register it twice with the carrier.
  return withTransaction(ctx, async (tx) => {
    await getSendingDomain(tx, actor, domainId);
    await tx.db.select({ id: sendingDomains.id }).from(sendingDomains).where(eq(sendingDomains.id, domainId)).for("update");
    return checkLocked(tx, actor, domainId, deps, options);
  });
}

async function checkLocked(ctx: Ctx, actor: Actor, domainId: string, deps: DomainDeps, options: { reregister?: boolean }): Promise<SendingDomain> {
  let domain = await getSendingDomain(ctx, actor, domainId);
  const carrier = deps.carrier ?? domainCarrier();
  const now = () => ctx.clock.now();
  let carrierState: Partial<SendingDomain> = {};
  const register = async () => {
    try {
      const registration = await carrier.register(domain);
      carrierState = {
        carrier: carrier.name,
        carrierStatus: registration.status,
        carrierError: null,
        carrierDomainId: registration.carrierDomainId ?? domain.carrierDomainId,
        carrierRecords: registration.records ?? domain.carrierRecords,
      };
    } catch (error) {
      carrierState = { carrier: carrier.name, carrierStatus: "failed", carrierError: error instanceof Error ? error.message : String(error) };
    }
    domain = { ...domain, ...carrierState };
  };
  // A carrier that gives its own records (Resend) is asked for them before there is anything to check.
  if (carrier.name === "resend" && !domain.carrierDomainId) await register();

  const records = await checkDomainDns(expectedRecords(domain, carrier.name), deps.resolver ?? domainResolver());
  const published = records.every((record) => !record.required || record.status === "found");
  let state: DomainState;
  if (!published) {
    state = domain.dnsVerifiedAt ? "records_missing" : "pending";
  } else {
    if (options.reregister || domain.carrierStatus !== "registered" || domain.carrier !== carrier.name) await register();
    state = domain.carrierStatus === "registered" ? "ready" : domain.carrierStatus === "failed" ? "registration_failed" : "verified";
  }
  const [saved] = await ctx.db
    .update(sendingDomains)
    .set({ ...carrierState, records, state, lastCheckedAt: now(), ...(published && !domain.dnsVerifiedAt ? { dnsVerifiedAt: now() } : {}) })
    .where(eq(sendingDomains.id, domain.id))
    .returning();
  return saved!;
}
