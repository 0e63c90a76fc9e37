import { and, eq } from "drizzle-orm";
import type { Caller } from "@/lib/caller";
import { withTransaction, type Ctx } from "@/lib/context";
import { suppressions, type SuppressionReason } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import type { SuppressionRow } from "./suppression-view";

export interface SuppressionTarget {
  email?: string;
  domain?: string;
  note?: string;
}

/**
 * Blocks an address, or every address at a domain (now and later). Blocking
 * what is already blocked returns the existing row unchanged.
 */
export async function createSuppression(
  ctx: Ctx,
  caller: Pick<Caller, "workspaceId">,
  target: SuppressionTarget,
  reason: SuppressionReason = "manual",
): Promise<{ suppression: SuppressionRow; created: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const [inserted] = await tx.db
      .insert(suppressions)
      .values({
        id: newId("sup"),
        workspaceId: caller.workspaceId,
        email: target.email ?? null,
        domain: target.domain ?? null,
        reason,
        note: target.note ?? "",
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
          eq(suppressions.workspaceId, caller.workspaceId),
          target.email ? eq(suppressions.email, target.email) : eq(suppressions.domain, target.domain!),
        ),
      );
    return { suppression: existing!, created: false };
  });
}
