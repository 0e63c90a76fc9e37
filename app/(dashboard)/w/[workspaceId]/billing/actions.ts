"use server";

import { z } from "zod";
import { choosePlan, paymentPortalUrl } from "@/lib/billing/choose-plan";
import { cancelPlan } from "@/lib/billing/plan-changes";
import { stripeConfig } from "@/lib/billing/stripe/stripe-config";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import type { WorkspaceSession } from "@/lib/dashboard/workspace-session";
import { ApiError } from "@/lib/errors";

// Billing is how a read-only workspace gets going again, so these run in every stage but deleted.
const inEveryStage = { whileInactive: true };

function assertManagesBilling(session: WorkspaceSession) {
  if (session.workspace.role === "member") throw new ApiError({ type: "permission_error", code: "not_allowed", message: "Only the workspace's owners and admins manage billing." });
}

export const choosePlanAction = workspaceAction(
  z.strictObject({ plan: z.string() }),
  (session, { plan }) => {
    assertManagesBilling(session);
    return choosePlan(session.ctx, session.workspace.id, plan);
  },
  inEveryStage,
);

export const paymentPortalAction = workspaceAction(
  z.strictObject({}),
  async (session) => {
    assertManagesBilling(session);
    return { url: await paymentPortalUrl(session.ctx, session.workspace.id) };
  },
  inEveryStage,
);

export const cancelPlanAction = workspaceAction(
  z.strictObject({}),
  async (session) => {
    assertManagesBilling(session);
    // With Stripe the subscription is cancelled in its portal; cancelling here alone would leave Stripe charging.
    if (stripeConfig()) throw new ApiError({ type: "invalid_request_error", code: "cancel_in_portal", message: "Cancel in the payment portal: Update payment or cancel." });
    const billing = await cancelPlan(session.ctx, session.workspace.id);
    return { endsAt: billing.paidThrough?.toISOString() ?? null };
  },
  inEveryStage,
);
