import "server-only";

import { createPrivateKey } from "node:crypto";
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
  if (!domain || domain.state !== "ready") return null;
  if (!senderIsAtDomain(brand.senderEmail, domain.hostname)) return null;
  return {
    domainName: domain.hostname,
    keySelector: domain.dkimSelector,
    privateKey: createPrivateKey(decryptPrivateKey(domain.dkimPrivateKey)),
  };
}
