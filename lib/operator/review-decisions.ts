import "server-only";
import { and, eq } from "drizzle-orm";
import { systemActor } from "@/lib/actor";
import { approveBrand } from "@/lib/brands/approve-brand";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands, workspaces } from "@/lib/db/schema";
import { ApiError, notFound, validationFailed } from "@/lib/errors";
import { mailOwners } from "@/lib/mail/mail-owners";
import { approveWorkspace } from "@/lib/workspaces/approve-workspace";

export interface ReviewDecision {
  decision: "approve" | "reject";
  /** When the brand was last changed, as the operator saw it: a brand edited since is not decided blind. */
  seenUpdatedAt?: Date;
  /** Required to reject: it is mailed to the owners, who must know what to change. */
  reason: string;
  /** Who decided (an operator's user id, or the CLI). */
  reviewer: string;
}

function checkReason(decision: ReviewDecision): string {
  const reason = decision.reason.trim();
  if (decision.decision === "reject" && reason.length < 10) throw validationFailed("reason", "reason: say what the owners must change (at least 10 characters).");
  if (reason.length > 2000) throw validationFailed("reason", "reason: at most 2000 characters.");
  return reason;
}

/** The service's decision on a workspace: approved (it may leave the sandbox) or rejected with a reason; either way its owners are told. */
export async function reviewWorkspace(ctx: Ctx, workspaceId: string, decision: ReviewDecision): Promise<{ workspaceId: string; decision: "approve" | "reject"; mailed: number }> {
  const reason = checkReason(decision);
  const [workspace] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`);
  await withTransaction(ctx, async (tx) => {
    if (decision.decision === "approve") {
      await approveWorkspace(tx, workspaceId);
      await tx.db
        .update(workspaces)
        .set({ reviewRejectedAt: null, reviewNote: reason || null })
        .where(eq(workspaces.id, workspaceId));
    } else {
      // A rejection also withdraws an earlier approval: the workspace is back in its sandbox.
      await tx.db.update(workspaces).set({ approvedAt: null, reviewRejectedAt: tx.clock.now(), reviewNote: reason }).where(eq(workspaces.id, workspaceId));
    }
  });
  const subject = decision.decision === "approve" ? `${workspace.name} passed the review` : `${workspace.name} did not pass the review`;
  const body =
    decision.decision === "approve"
      ? `The review of your workspace ${workspace.name} is done: it can send to anyone once a brand is approved and its sending domain is ready.${reason ? `\n\nNote from the reviewer: ${reason}` : ""}`
      : `The review of your workspace ${workspace.name} found something to change before it can send beyond its verified addresses:\n\n${reason}\n\nChange it, then reply to this mail.`;
  return { workspaceId, decision: decision.decision, mailed: await mailOwners(ctx, workspaceId, { subject, text: body }) };
}

/** The service's decision on a brand's identity: approved (its held campaigns carry on) or rejected with a reason mailed to the owners. */
export async function reviewBrand(ctx: Ctx, brandId: string, decision: ReviewDecision): Promise<{ brandId: string; decision: "approve" | "reject"; mailed: number }> {
  const reason = checkReason(decision);
  const [brand] = await ctx.db.select().from(brands).where(eq(brands.id, brandId));
  if (!brand) throw notFound("brand_not_found", `No brand ${brandId}.`);
  if (decision.seenUpdatedAt && brand.updatedAt.getTime() !== decision.seenUpdatedAt.getTime()) {
    throw new ApiError({ type: "invalid_request_error", code: "brand_changed", message: "The brand was edited since you opened the queue. Reload and review it again." });
  }
  await withTransaction(ctx, async (tx) => {
    if (decision.decision === "approve") await approveBrand(tx, systemActor(`review:${decision.reviewer}`, brand.workspaceId), brandId);
    else
      await tx.db
        .update(brands)
        .set({ reviewStatus: "rejected", reviewedAt: tx.clock.now() })
        .where(and(eq(brands.id, brandId), eq(brands.workspaceId, brand.workspaceId)));
    await tx.db
      .update(brands)
      .set({ reviewNote: reason || null })
      .where(eq(brands.id, brandId));
  });
  const subject = decision.decision === "approve" ? `The brand ${brand.name} is approved` : `The brand ${brand.name} needs changes`;
  const body =
    decision.decision === "approve"
      ? `The brand ${brand.name} passed the review.${reason ? `\n\nNote from the reviewer: ${reason}` : ""}`
      : `The review of the brand ${brand.name} found something to change:\n\n${reason}\n\nEdit the brand in the dashboard; the edit sends it back to review.`;
  return { brandId, decision: decision.decision, mailed: await mailOwners(ctx, brand.workspaceId, { subject, text: body }) };
}
