import "server-only";

import { eq } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys, users, type SubscriptionOrigin } from "@/lib/db/schema";

/**
 * The origin of a subscription an API key or a member makes directly: the key's id and name, or
 * the member's id and address as they were then (a member may leave; the record stays). Null for
 * the system (the admin CLI, a workflow).
 */
export async function actorOrigin(ctx: Ctx, actor: Actor): Promise<SubscriptionOrigin | null> {
  if (actor.kind === "api_key") {
    const [key] = await ctx.db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, actor.keyId));
    return { kind: "api_key", key_id: actor.keyId, key_name: key?.name || null };
  }
  if (actor.kind === "user") {
    const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId));
    return { kind: "member", user_id: actor.userId, member: user?.email ?? null };
  }
  return null;
}
