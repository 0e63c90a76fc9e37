import "server-only";
import { and, eq } from "drizzle-orm";
import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { suppressions } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";

/**
 * Lifts a block; it resubscribes nobody. Complaint suppressions stay: the
 * recipient reported the mail, and only they can take that back.
 */
export async function deleteSuppression(ctx: Ctx, actor: Actor, suppressionId: string): Promise<void> {
  const [row] = await ctx.db
    .select({ reason: suppressions.reason })
    .from(suppressions)
    .where(and(eq(suppressions.id, suppressionId), inActorWorkspace(actor, suppressions.workspaceId)));
  if (!row) throw notFound("suppression_not_found", `No suppression ${suppressionId}.`);
  if (row.reason === "complaint") {
    throw new ApiError({ type: "invalid_request_error", code: "suppression_not_removable", message: "Suppressions created by a complaint cannot be removed." });
  }
  await ctx.db.delete(suppressions).where(and(eq(suppressions.id, suppressionId), inActorWorkspace(actor, suppressions.workspaceId)));
}
