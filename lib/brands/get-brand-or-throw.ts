import { and, eq } from "drizzle-orm";
import { brands } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { notFound } from "@/lib/errors";

export type BrandRow = typeof brands.$inferSelect;

/** With a workspace id, a brand of another workspace is not found. */
export async function getBrandOrThrow(ctx: Ctx, brandId: string, workspaceId?: string): Promise<BrandRow> {
  const [brand] = await ctx.db
    .select()
    .from(brands)
    .where(and(eq(brands.id, brandId), workspaceId ? eq(brands.workspaceId, workspaceId) : undefined));
  if (!brand) throw notFound("brand_not_found", `No brand ${brandId}.`);
  return brand;
}
