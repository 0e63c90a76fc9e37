import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import type { SubscriptionOrigin } from "@/lib/db/schema";

/**
 * The origin of a subscription an API key or a member makes directly: the key's id and name, or
 * the member's id and address as they were then (a member may leave; the record stays). Null for
 * the system (the admin CLI, a workflow).
 */
export async function actorOrigin(ctx: Ctx, actor: Actor): Promise<SubscriptionOrigin | null> {
  if (actor.kind === "system") return null;
  const [row] = (await ctx.db.execute(sql`select ${actorOriginSql(actor)} as origin`)) as unknown as {
    origin: SubscriptionOrigin | null;
  }[];
  return row?.origin ?? null;
}

/**
 * actorOrigin as a jsonb value inside the statement that writes the subscription: the key's name
 * or the member's address is read there rather than in a round trip of its own.
 */
export function actorOriginSql(actor: Actor): SQL {
  if (actor.kind === "api_key")
    return sql`jsonb_build_object('kind', 'api_key', 'key_id', ${actor.keyId}::text,
      'key_name', (select nullif(k.name, '') from api_keys k where k.id = ${actor.keyId}))`;
  if (actor.kind === "user")
    return sql`jsonb_build_object('kind', 'member', 'user_id', ${actor.userId}::text,
      'member', (select u.email from users u where u.id = ${actor.userId}))`;
  return sql`null::jsonb`;
}
