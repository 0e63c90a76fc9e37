import "server-only";

import { createPrivateKey, type KeyObject } from "node:crypto";
import { eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { sendingDomains } from "@/lib/db/schema";
import type { DkimKey } from "@/lib/mail/outgoing-message";

import { decryptPrivateKey } from "./dkim-keys";
import { senderIsAtDomain } from "./sender-domain";

/**
 * The DKIM key that signs a brand's mail: its domain's own, once the domain
 * is ready and the sender address is at it (the signature's domain must
 * match the From domain for DMARC). Null otherwise.
 */
export async function domainSigningKey(
  ctx: Ctx,
  brand: { domainId: string | null; senderEmail: string },
): Promise<DkimKey | null> {
  if (!brand.domainId) return null;
  const [domain] = await ctx.db.select().from(sendingDomains).where(eq(sendingDomains.id, brand.domainId));
  return signingKeyOf(domain ?? null, brand);
}

/** The same, for a sender that read the brand's domain row with the rest of its mail. */
export function signingKeyOf(
  domain: Pick<typeof sendingDomains.$inferSelect, "state" | "hostname" | "dkimSelector" | "dkimPrivateKey"> | null,
  brand: { senderEmail: string },
): DkimKey | null {
  if (!domain || domain.state !== "ready") return null;
  if (!senderIsAtDomain(brand.senderEmail, domain.hostname)) return null;
  return {
    domainName: domain.hostname,
    keySelector: domain.dkimSelector,
    privateKey: parsedKey(domain.dkimPrivateKey),
  };
}

/**
 * Keys parsed so far, by their stored (encrypted) text: decrypting and parsing a key cost more than the
 * rest of building a message (a CPU profile of automation sends: 1.4 % of the process in createPrivateKey
 * alone). A rotated key is new text, so it is parsed afresh; the map is emptied past a bound.
 */
const parsedKeys = new Map<string, KeyObject>();
const PARSED_KEYS_BOUND = 1000;

function parsedKey(stored: string): KeyObject {
  let key = parsedKeys.get(stored);
  if (!key) {
    if (parsedKeys.size >= PARSED_KEYS_BOUND) parsedKeys.clear();
    key = createPrivateKey(decryptPrivateKey(stored));
    parsedKeys.set(stored, key);
  }
  return key;
}
