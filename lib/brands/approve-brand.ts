import { eq } from "drizzle-orm";
import { brands } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { getBrandOrThrow } from "./get-brand-or-throw";

/** Ends the service's review of a brand. */
export async function approveBrand(ctx: Ctx, brandId: string): Promise<{ brandId: string; reviewStatus: "approved" }> {
  await getBrandOrThrow(ctx, brandId);
  await ctx.db.update(brands).set({ reviewStatus: "approved", reviewedAt: ctx.clock.now() }).where(eq(brands.id, brandId));
  return { brandId, reviewStatus: "approved" };
}
