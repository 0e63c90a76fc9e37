import "server-only";

import { and, count, eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { approveBrand } from "@/lib/brands/approve-brand";
import { withTransaction, type Ctx } from "@/lib/context";
import { brands, memberships, users, workspaces } from "@/lib/db/schema";
import { ApiError, notFound, validationFailed } from "@/lib/errors";
import { mailOwners } from "@/lib/mail/mail-owners";
import { approveWorkspace } from "@/lib/workspaces/approve-workspace";

export interface ReviewDecision {
  decision: "approve" | "reject";
  /** Required for a brand: when it was last changed, as the operator saw it. A brand edited since is not decided blind. */
  seenUpdatedAt?: Date;
  /** Required to reject: it is mailed to the owners, who must know what to change. */
  reason: string;
  /** Who decided: an operator's user id. */
  reviewer: string;
}

function checkReason(decision: ReviewDecision): string {
  const reason = decision.reason.trim();
  if (decision.decision === "reject" && reason.length < 10)
    throw validationFailed("reason", "reason: say what the owners must change (at least 10 characters).");
  if (reason.length > 2000) throw validationFailed("reason", "reason: at most 2000 characters.");
  return reason;
}

/**
 * Who decided, and whether it was a self-review: the reviewer is a member of
 * the workspace under review. Refused where the service has other operators
 * to decide (a hosted service's team); allowed, and recorded, where the
 * reviewer is its only operator (a self-hosted install's first owner).
 */
async function decider(
  ctx: Ctx,
  workspaceId: string,
  reviewer: string,
): Promise<{ reviewedBy: string; selfReviewed: boolean }> {
  const [member] = await ctx.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, reviewer)));
  if (!member) return { reviewedBy: reviewer, selfReviewed: false };
  const [{ operators }] = (await ctx.db
    .select({ operators: count() })
    .from(users)
    .where(eq(users.isOperator, true))) as [{ operators: number }];
  if (operators > 1) {
    throw new ApiError({
      type: "permission_error",
      code: "own_review",
      message: "You are a member of this workspace: another of the service's operators reviews it and its brands.",
    });
  }
  return { reviewedBy: reviewer, selfReviewed: true };
}

/**
 * The service's decision on a workspace: approved (it may leave the sandbox) or rejected with a reason; either way its owners are told.
 * System: the operator's review, whose caller findOperator checked; no workspace member reaches it.
 */
export async function reviewWorkspace(
  ctx: Ctx,
  workspaceId: string,
  decision: ReviewDecision,
): Promise<{ workspaceId: string; decision: "approve" | "reject"; mailed: number }> {
  const reason = checkReason(decision);
  const workspace = await withTransaction(ctx, async (tx) => {
    const [workspace] = await tx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for("update");
    if (!workspace) throw notFound("workspace_not_found", `No workspace ${workspaceId}.`);
    const decided = await decider(tx, workspaceId, decision.reviewer);
    if (decision.decision === "approve") {
      await approveWorkspace(tx, workspaceId);
      await tx.db
        .update(workspaces)
        .set({ reviewRejectedAt: null, reviewNote: reason || null, ...decided })
        .where(eq(workspaces.id, workspaceId));
    } else {
      // A rejection also withdraws an earlier approval: the workspace is back in its sandbox.
      await tx.db
        .update(workspaces)
        .set({ approvedAt: null, reviewRejectedAt: tx.clock.now(), reviewNote: reason, ...decided })
        .where(eq(workspaces.id, workspaceId));
    }
    return workspace;
  });
  const subject =
    decision.decision === "approve"
      ? `${workspace.name} passed the review`
      : `${workspace.name} did not pass the review`;
  const body =
    decision.decision === "approve"
      ? `The review of your workspace ${workspace.name} is done: it can send to anyone once a brand is approved and its sending domain is ready.${reason ? `\n\nNote from the reviewer: ${reason}` : ""}`
      : `The review of your workspace ${workspace.name} found something to change before it can send beyond its verified addresses:\n\n${reason}\n\nChange it, then reply to this mail.`;
  return {
    workspaceId,
    decision: decision.decision,
    mailed: await mailOwners(ctx, workspaceId, { subject, text: body }),
  };
}

/** The service's decision on a brand's identity: approved (its held campaigns carry on) or rejected with a reason mailed to the owners. */
export async function reviewBrand(
  ctx: Ctx,
  brandId: string,
  decision: ReviewDecision,
): Promise<{ brandId: string; decision: "approve" | "reject"; mailed: number }> {
  const reason = checkReason(decision);
  const seen = decision.seenUpdatedAt;
  if (!(seen instanceof Date) || Number.isNaN(seen.getTime())) {
    throw validationFailed(
      "seen_updated_at",
      "seen_updated_at: say which version of the brand was reviewed (when it was last changed, as the queue showed it); a decision without it is refused.",
    );
  }
  const brand = await withTransaction(ctx, async (tx) => {
    // Locked before it is compared: an edit under way is waited for, then seen, so it is never approved blind.
    const [brand] = await tx.db.select().from(brands).where(eq(brands.id, brandId)).for("update");
    if (!brand) throw notFound("brand_not_found", `No brand ${brandId}.`);
    if (brand.updatedAt.getTime() !== seen.getTime()) {
      throw new ApiError({
        type: "invalid_request_error",
        code: "brand_changed",
        message: "The brand was edited since you opened the queue. Reload and review it again.",
      });
    }
    const decided = await decider(tx, brand.workspaceId, decision.reviewer);
    if (decision.decision === "approve")
      await approveBrand(tx, systemActor(`review:${decision.reviewer}`, brand.workspaceId), brandId);
    else
      await tx.db
        .update(brands)
        .set({ reviewStatus: "rejected", reviewedAt: tx.clock.now() })
        .where(and(eq(brands.id, brandId), eq(brands.workspaceId, brand.workspaceId)));
    await tx.db
      .update(brands)
      .set({ reviewNote: reason || null, ...decided })
      .where(eq(brands.id, brandId));
    return brand;
  });
  const subject =
    decision.decision === "approve" ? `The brand ${brand.name} is approved` : `The brand ${brand.name} needs changes`;
  const body =
    decision.decision === "approve"
      ? `The brand ${brand.name} passed the review.${reason ? `\n\nNote from the reviewer: ${reason}` : ""}`
      : `The review of the brand ${brand.name} found something to change:\n\n${reason}\n\nEdit the brand in the dashboard; the edit sends it back to review.`;
  return {
    brandId,
    decision: decision.decision,
    mailed: await mailOwners(ctx, brand.workspaceId, { subject, text: body }),
  };
}
