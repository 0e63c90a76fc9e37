import "server-only";

import type { Ctx } from "@/lib/context";
import { countersClient } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";

const TOUCH_EVERY_MS = 60_000;

/**
 * Records that a key was used, for the keys screen's "last used". At most one
 * write per key per minute (the `where` skips fresher rows, so a busy key
 * costs no write contention). The request does not wait for it, and a failure
 * here never fails an API call.
 */
export function touchLastUsed(ctx: Ctx, keyId: string): Promise<void> {
  const now = ctx.clock.now();
  const staleBefore = new Date(now.getTime() - TOUCH_EVERY_MS).toISOString();
  const sql = countersClient(ctx.db);
  return sql`update api_keys set last_used_at = ${now.toISOString()}
           where id = ${keyId} and (last_used_at is null or last_used_at < ${staleBefore})`.then(
    () => undefined,
    (error: unknown) => logger().error({ err: error, key_id: keyId }, "could not record an API key's last use"),
  );
}
