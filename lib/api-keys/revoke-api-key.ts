import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/**
 * Takes effect on the very next request, on every app instance: the cached key is dropped by the
 * notification its update sends at commit (lib/api/authenticate.ts, KeyAdmission).
 */
export async function revokeApiKey(ctx: Ctx, actor: Actor, keyId: string): Promise<{ keyId: string; revokedAt: Date }> {
  const [key] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), inActorWorkspace(actor, apiKeys.workspaceId)));
  if (!key) throw notFound("key_not_found", `No API key ${keyId}.`);
  const revokedAt = key.revokedAt ?? ctx.clock.now();
  await ctx.db.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, keyId));
  return { keyId, revokedAt };
}
