import "server-only";

import { asc, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";

/**
 * A template belongs to no brand; it is shown with the workspace's first
 * brand by name (its logo, name and footer), as a campaign of that brand
 * would look. Null when the workspace has no brand.
 */
export async function templateBrand(ctx: Ctx, actor: WorkspaceActor) {
  const [brand] = await ctx.db
    .select()
    .from(brands)
    .where(eq(brands.workspaceId, actor.workspaceId))
    .orderBy(asc(brands.name), asc(brands.id))
    .limit(1);
  return brand ?? null;
}
