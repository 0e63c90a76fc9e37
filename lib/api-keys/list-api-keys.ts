import "server-only";

import { desc, eq } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys, users } from "@/lib/db/schema";

export type ApiKeySummary = Pick<
  typeof apiKeys.$inferSelect,
  | "id"
  | "name"
  | "kind"
  | "environment"
  | "brandId"
  | "allowedOrigins"
  | "displayPrefix"
  | "last4"
  | "createdAt"
  | "lastUsedAt"
  | "revokedAt"
  | "createdByUserId"
> & {
  /** The creating member's address; null for keys the operator's CLI made, or made before creators were recorded. */
  createdByEmail: string | null;
};

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
      createdByUserId: apiKeys.createdByUserId,
      createdByEmail: users.email,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(eq(apiKeys.workspaceId, actor.workspaceId))
    .orderBy(desc(apiKeys.id));
}
