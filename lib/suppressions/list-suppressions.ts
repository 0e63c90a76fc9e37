import "server-only";

import { and, desc, lt } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { suppressions } from "@/lib/db/schema";

import type { SuppressionRow } from "./suppression-view";

/** Newest first, keyset-paginated; returns up to `limit + 1` rows. */
export async function listSuppressions(
  ctx: Ctx,
  actor: Actor,
  page: { limit: number; afterId: string | null },
): Promise<SuppressionRow[]> {
  return ctx.db
    .select()
    .from(suppressions)
    .where(
      and(
        inActorWorkspace(actor, suppressions.workspaceId),
        page.afterId ? lt(suppressions.id, page.afterId) : undefined,
      ),
    )
    .orderBy(desc(suppressions.id))
    .limit(page.limit + 1);
}
