import "server-only";

import { and, asc, desc, eq, isNull } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys, attributeDefinitions, brands, topics } from "@/lib/db/schema";

export type SignupFormOptions = Awaited<ReturnType<typeof signupFormOptions>>;

/** What the form editor offers: brands, live topics, live publishable keys and attributes, names and ids only. */
export async function signupFormOptions(ctx: Ctx, actor: WorkspaceActor) {
  const workspaceId = actor.workspaceId;
  const [brandRows, topicRows, keyRows, attributeRows] = await Promise.all([
    ctx.db
      .select({ id: brands.id, name: brands.name })
      .from(brands)
      .where(eq(brands.workspaceId, workspaceId))
      .orderBy(asc(brands.name)),
    ctx.db
      .select({
        id: topics.id,
        name: topics.name,
        brandId: topics.brandId,
        requiresConfirmation: topics.requiresConfirmation,
      })
      .from(topics)
      .where(and(eq(topics.workspaceId, workspaceId), isNull(topics.archivedAt)))
      .orderBy(asc(topics.name)),
    ctx.db
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        environment: apiKeys.environment,
        brandId: apiKeys.brandId,
        allowedOrigins: apiKeys.allowedOrigins,
        displayPrefix: apiKeys.displayPrefix,
        last4: apiKeys.last4,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.kind, "publishable"), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.id)),
    ctx.db
      .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
      .from(attributeDefinitions)
      .where(eq(attributeDefinitions.workspaceId, workspaceId))
      .orderBy(asc(attributeDefinitions.key)),
  ]);
  return { brands: brandRows, topics: topicRows, keys: keyRows, attributes: attributeRows };
}
