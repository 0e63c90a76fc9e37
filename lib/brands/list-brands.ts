import "server-only";

import { desc, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands } from "@/lib/db/schema";

export type BrandSummary = Pick<
  typeof brands.$inferSelect,
  "id" | "name" | "legalName" | "senderEmail" | "reviewStatus" | "selfReviewed" | "sendingHeldAt" | "createdAt"
>;

/** The workspace's brands, newest first (a workspace has a handful). */
export function listBrands(ctx: Ctx, actor: WorkspaceActor): Promise<BrandSummary[]> {
  return ctx.db
    .select({
      id: brands.id,
      name: brands.name,
      legalName: brands.legalName,
      senderEmail: brands.senderEmail,
      reviewStatus: brands.reviewStatus,
      selfReviewed: brands.selfReviewed,
      sendingHeldAt: brands.sendingHeldAt,
      createdAt: brands.createdAt,
    })
    .from(brands)
    .where(eq(brands.workspaceId, actor.workspaceId))
    .orderBy(desc(brands.id));
}
