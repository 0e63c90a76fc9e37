import "server-only";

import { eq } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import { resumeHeldCampaigns } from "@/lib/campaigns/campaign-actions";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";

import { getBrandOrThrow } from "./get-brand-or-throw";

/** Ends the service's review of a brand; campaigns held by an identity edit carry on. */
export async function approveBrand(
  ctx: Ctx,
  actor: Actor,
  brandId: string,
): Promise<{ brandId: string; reviewStatus: "approved"; resumed: number }> {
  return withTransaction(ctx, async (tx) => {
    const brand = await getBrandOrThrow(tx, actor, brandId);
    await tx.db
      .update(brands)
      .set({ reviewStatus: "approved", reviewedAt: tx.clock.now(), sendingHeldAt: null })
      .where(eq(brands.id, brandId));
    const resumed = brand.sendingHeldAt ? await resumeHeldCampaigns(tx, actor, brandId) : 0;
    return { brandId, reviewStatus: "approved", resumed };
  });
}
