import "server-only";

import { and, asc, eq, isNull } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys, webhookEndpoints } from "@/lib/db/schema";

import type { MemberCreations } from "./member-schemas";

/**
 * The API keys and webhook endpoints of the actor's workspace that a member created and that still work:
 * what removing them asks about (removeMember). Another workspace's member created nothing here.
 */
export async function listMemberCreations(ctx: Ctx, actor: WorkspaceActor, userId: string): Promise<MemberCreations> {
  const [keys, endpoints] = await Promise.all([
    ctx.db
      .select({ id: apiKeys.id, name: apiKeys.name, displayPrefix: apiKeys.displayPrefix, last4: apiKeys.last4 })
      .from(apiKeys)
      .where(
        and(eq(apiKeys.workspaceId, actor.workspaceId), eq(apiKeys.createdByUserId, userId), isNull(apiKeys.revokedAt)),
      )
      .orderBy(asc(apiKeys.id)),
    ctx.db
      .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.workspaceId, actor.workspaceId),
          eq(webhookEndpoints.createdByUserId, userId),
          eq(webhookEndpoints.enabled, true),
        ),
      )
      .orderBy(asc(webhookEndpoints.id)),
  ]);
  return { apiKeys: keys, webhookEndpoints: endpoints };
}
