import "server-only";
import { desc, eq } from "drizzle-orm";
import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys } from "@/lib/db/schema";

export type ApiKeySummary = Pick<
  typeof apiKeys.$inferSelect,
  "id" | "name" | "kind" | "environment" | "brandId" | "allowedOrigins" | "displayPrefix" | "last4" | "createdAt" | "lastUsedAt" | "revokedAt"
>;

/** Every key of the workspace, revoked ones included (they explain failing integrations), newest first. */
export function listApiKeys(ctx: Ctx, actor: WorkspaceActor): Promise<ApiKeySummary[]> {
  return ctx.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      kind: apiKeys.kind,
      environment: apiKeys.environment,
      brandId: apiKeys.brandId,
      allowedOrigins: apiKeys.allowedOrigins,
      displayPrefix: apiKeys.displayPrefix,
      last4: apiKeys.last4,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, actor.workspaceId))
    .orderBy(desc(apiKeys.id));
}
