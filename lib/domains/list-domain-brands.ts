import "server-only";

import { and, eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";

import { senderIsAtDomain } from "./sender-domain";
import type { DomainBrand } from "./sending-domains";

/** The brands pointed at one of the actor's domains, each saying whether its sender address is at it. */
export async function listDomainBrands(
  ctx: Ctx,
  actor: Actor,
  domain: { id: string; hostname: string },
): Promise<DomainBrand[]> {
  const rows = await ctx.db
    .select({ id: brands.id, name: brands.name, senderEmail: brands.senderEmail })
    .from(brands)
    .where(and(eq(brands.workspaceId, requireActorWorkspace(actor)), eq(brands.domainId, domain.id)))
    .orderBy(brands.name);
  return rows.map((brand) => ({ ...brand, senderAtDomain: senderIsAtDomain(brand.senderEmail, domain.hostname) }));
}
