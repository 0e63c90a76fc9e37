import "server-only";

import { eq } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys, type SubscriptionOrigin } from "@/lib/db/schema";

/** The origin of a subscription an API key makes: the key's id and name. Null for any other actor. */
export async function apiKeyOrigin(ctx: Ctx, actor: Actor): Promise<SubscriptionOrigin | null> {
  if (actor.kind !== "api_key") return null;
  const [key] = await ctx.db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, actor.keyId));
  return { kind: "api_key", key_id: actor.keyId, key_name: key?.name || null };
}
