import "server-only";

import type { Resolver } from "node:dns/promises";
import { and, desc, eq } from "drizzle-orm";

import { inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import { isFreeMailDomain } from "@/lib/brands/free-mail";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands, sendingDomains } from "@/lib/db/schema";
import { notFound, validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";

import { checkDomainDns, domainResolver, findDmarcPolicy } from "./check-domain-dns";
import { encryptPrivateKey, generateDkimKeyPair } from "./dkim-keys";
import { domainCarrier, type DomainCarrier } from "./domain-carrier";
import { dmarcRecord, ownershipRecord, ownRecords, spfInclude, type ExpectedRecord } from "./domain-records";
import { domainStateAfterCheck } from "./domain-state";
import { senderIsAtDomain } from "./sender-domain";

export type SendingDomain = typeof sendingDomains.$inferSelect;

/** What a check needs from outside: a resolver (DNS_SERVERS) and the carrier (MAIL_TRANSPORT). */
export interface DomainDeps {
  resolver?: Resolver;
  carrier?: DomainCarrier;
}

const HOSTNAME = /^(?=.{4,253}$)(?!-)([a-z0-9-]{1,63}(?<!-)\.)+[a-z]{2,63}$/;

/**
 * The records to publish: ours (SPF, our DKIM key, DMARC), or with Resend the
 * ones Resend gives, and DMARC; until Resend has the domain, its ownership record and DMARC.
 */
export function expectedRecords(domain: SendingDomain, carrierName: string): ExpectedRecord[] {
  if (carrierName === "resend")
    return [
      ...(domain.carrierDomainId ? domain.carrierRecords : [ownershipRecord(domain)]),
      dmarcRecord(domain.hostname),
    ];
  return ownRecords(domain, spfInclude());
}

export async function getSendingDomainOrThrow(ctx: Ctx, actor: Actor, domainId: string): Promise<SendingDomain> {
  const [domain] = await ctx.db
    .select()
    .from(sendingDomains)
    .where(and(eq(sendingDomains.id, domainId), inActorWorkspace(actor, sendingDomains.workspaceId)));
  if (!domain) throw notFound("domain_not_found", `No domain ${domainId}.`);
  return domain;
}

/** A brand pointed at a domain, and whether its mail can be signed with it (senderIsAtDomain). */
export interface DomainBrand {
  id: string;
  name: string;
  senderEmail: string;
  senderAtDomain: boolean;
}

export async function listSendingDomains(
  ctx: Ctx,
  actor: Actor,
): Promise<(SendingDomain & { brands: DomainBrand[] })[]> {
  const workspaceId = requireActorWorkspace(actor);
  const [domains, brandRows] = await Promise.all([
    ctx.db
      .select()
      .from(sendingDomains)
      .where(eq(sendingDomains.workspaceId, workspaceId))
      .orderBy(desc(sendingDomains.id)),
    ctx.db
      .select({ id: brands.id, name: brands.name, senderEmail: brands.senderEmail, domainId: brands.domainId })
      .from(brands)
      .where(eq(brands.workspaceId, workspaceId)),
  ]);
  return domains.map((domain) => ({
    ...domain,
    brands: brandRows
      .filter((brand) => brand.domainId === domain.id)
      .map(({ id, name, senderEmail }) => ({
        id,
        name,
        senderEmail,
        senderAtDomain: senderIsAtDomain(senderEmail, domain.hostname),
      })),
  }));
}

/**
 * A brand's sending domain: a DKIM key pair is made for it (the private key
 * stored encrypted), the brand is pointed at it, and the records to publish
 * are worked out. A hostname the workspace already has is reused.
 */
export async function addSendingDomain(
  ctx: Ctx,
  actor: Actor,
  input: { brandId: string; hostname: string },
  deps: DomainDeps = {},
): Promise<{ domainId: string }> {
  const workspaceId = requireActorWorkspace(actor);
  const hostname = input.hostname.trim().toLowerCase().replace(/\.$/, "");
  if (!HOSTNAME.test(hostname))
    throw validationFailed("hostname", "hostname: must be a domain name such as mail.example.com.");
  if (isFreeMailDomain(hostname))
    throw validationFailed(
      "hostname",
      `${hostname} belongs to a free mail provider: only a domain whose DNS you manage can be verified.`,
    );
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
        // A new domain has no reputation yet: its daily sending grows by the warm-up schedule.
        warmUp: true,
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
 * verified. `reregister` repeats the registration (re-sync). Resend is
 * asked for the domain only once its ownership record is found.
 */
export async function checkSendingDomain(
  ctx: Ctx,
  actor: Actor,
  domainId: string,
  deps: DomainDeps = {},
  options: { reregister?: boolean } = {},
): Promise<SendingDomain> {
  // One check at a time per domain (the daily re-check and a click): two would register it twice with the carrier.
  return withTransaction(ctx, async (tx) => {
    await getSendingDomainOrThrow(tx, actor, domainId);
    await tx.db
      .select({ id: sendingDomains.id })
      .from(sendingDomains)
      .where(eq(sendingDomains.id, domainId))
      .for("update");
    return checkLocked(tx, actor, domainId, deps, options);
  });
}

async function checkLocked(
  ctx: Ctx,
  actor: Actor,
  domainId: string,
  deps: DomainDeps,
  options: { reregister?: boolean },
): Promise<SendingDomain> {
  let domain = await getSendingDomainOrThrow(ctx, actor, domainId);
  const carrier = deps.carrier ?? domainCarrier();
  const now = () => ctx.clock.now();
  const resolver = deps.resolver ?? domainResolver();
  let carrierState: Partial<SendingDomain> = {};
  let asked = false;
  const register = async () => {
    asked = true;
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
      carrierState = {
        carrier: carrier.name,
        carrierStatus: "failed",
        carrierError: error instanceof Error ? error.message : String(error),
      };
    }
    domain = { ...domain, ...carrierState };
  };
  // Resend gives the records it signs with once the domain is created there, and creating it claims the
  // hostname in the service's one Resend account, for every workspace: it waits until the workspace has
  // shown it holds the hostname's DNS by publishing the domain's ownership record.
  const claimed = carrier.name !== "resend" || domain.carrierDomainId !== null;
  if (!claimed && (await checkDomainDns([ownershipRecord(domain)], resolver))[0]!.status === "found") await register();

  const [records, dmarcLookup] = await Promise.all([
    checkDomainDns(expectedRecords(domain, carrier.name), resolver),
    findDmarcPolicy(domain.hostname, resolver),
  ]);
  const published = records.every((record) => !record.required || record.status === "found");
  // Only the records the carrier sends with verify the domain; the ownership record alone does not.
  const verified = published && (carrier.name !== "resend" || domain.carrierDomainId !== null);
  if (
    published &&
    !asked &&
    (options.reregister || domain.carrierStatus !== "registered" || domain.carrier !== carrier.name)
  )
    await register();
  const state = domainStateAfterCheck({
    published,
    everVerified: domain.dnsVerifiedAt !== null,
    carrierStatus: domain.carrierStatus,
  });
  const [saved] = await ctx.db
    .update(sendingDomains)
    .set({
      ...carrierState,
      records,
      dmarcLookup,
      state,
      lastCheckedAt: now(),
      ...(verified && !domain.dnsVerifiedAt ? { dnsVerifiedAt: now() } : {}),
    })
    .where(eq(sendingDomains.id, domain.id))
    .returning();
  return saved!;
}
