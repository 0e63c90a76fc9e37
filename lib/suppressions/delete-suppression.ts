import "server-only";

import { and, eq } from "drizzle-orm";

import { actorLabel, inActorWorkspace, type Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { suppressionLifts, suppressions } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";

/**
 * Lifts a block; it resubscribes nobody. Complaint suppressions stay: the
 * recipient reported the mail, and only they can take that back. What was
 * lifted (with its evidence), why and by whom is kept in suppression_lifts.
 */
export async function deleteSuppression(ctx: Ctx, actor: Actor, suppressionId: string, liftReason = ""): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.id, suppressionId), inActorWorkspace(actor, suppressions.workspaceId)))
      .for("update");
    if (!row) throw notFound("suppression_not_found", `No suppression ${suppressionId}.`);
    if (row.reason === "complaint") {
      throw new ApiError({
        type: "invalid_request_error",
        code: "suppression_not_removable",
        message: "Suppressions created by a complaint cannot be removed.",
      });
    }
    await tx.db.delete(suppressions).where(eq(suppressions.id, row.id));
    await tx.db.insert(suppressionLifts).values({
      id: newId("sul"),
      workspaceId: row.workspaceId,
      suppressionId: row.id,
      email: row.email,
      domain: row.domain,
      reason: row.reason,
      evidenceEventId: row.evidenceEventId,
      liftReason: liftReason.trim(),
      liftedBy: actorLabel(actor),
      suppressedAt: row.createdAt,
      liftedAt: tx.clock.now(),
    });
  });
}
