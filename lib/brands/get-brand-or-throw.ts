import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export type BrandRow = typeof brands.$inferSelect;

/** A brand of another workspace than the actor's is not found. */
export async function getBrandOrThrow(ctx: Ctx, actor: Actor, brandId: string): Promise<BrandRow> {
  const [brand] = await ctx.db
    .select()
    .from(brands)
    .where(and(eq(brands.id, brandId), inActorWorkspace(actor, brands.workspaceId)));
  if (!brand) throw notFound("brand_not_found", `No brand ${brandId}.`);
  return brand;
}
