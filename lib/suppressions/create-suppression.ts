import "server-only";

import { and, eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { suppressions, type SuppressionReason } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";

import type { SuppressionRow } from "./suppression-view";

/** As parsed by createSuppressionSchema (suppression-schemas.ts): normalised, one of the two. */
export interface SuppressionTarget {
  email?: string;
  domain?: string;
  note?: string;
  /** The provider's report behind a bounce or complaint (never from the API). */
  evidenceEventId?: string | null;
}

/**
 * Blocks an address, or every address at a domain (now and later), in the
 * actor's workspace. Blocking what is already blocked returns the existing
 * row unchanged.
 */
export async function createSuppression(
  ctx: Ctx,
  actor: Actor,
  target: SuppressionTarget,
  reason: SuppressionReason = "manual",
): Promise<{ suppression: SuppressionRow; created: boolean }> {
  if ((target.email === undefined) === (target.domain === undefined))
    throw validationFailed(target.domain ? "domain" : "email", "Give one of `email` or `domain`.");
  const workspaceId = requireActorWorkspace(actor);
  return withTransaction(ctx, async (tx) => {
    const [inserted] = await tx.db
      .insert(suppressions)
      .values({
        id: newId("sup"),
        workspaceId,
        email: target.email ?? null,
        domain: target.domain ?? null,
        reason,
        note: target.note ?? "",
        evidenceEventId: target.evidenceEventId ?? null,
        createdAt: tx.clock.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) return { suppression: inserted, created: true };
    const [existing] = await tx.db
      .select()
      .from(suppressions)
      .where(
        and(
          eq(suppressions.workspaceId, workspaceId),
          target.email ? eq(suppressions.email, target.email) : eq(suppressions.domain, target.domain!),
        ),
      );
    return { suppression: existing!, created: false };
  });
}
