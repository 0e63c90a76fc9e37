"use server";

import { z } from "zod";

import { choosePlan, paymentPortalUrl } from "@/lib/billing/choose-plan";
import { cancelPlan } from "@/lib/billing/plan-changes";
import { stripeConfig } from "@/lib/billing/stripe/stripe-config";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { ApiError } from "@/lib/errors";

// Billing is how a read-only workspace gets going again, so these run in every stage but deleted.
const inEveryStage = { whileInactive: true };

export const choosePlanAction = workspaceAction(
  z.strictObject({ plan: z.string() }),
  ({ ctx, actor }, { plan }) => choosePlan(ctx, actor, plan),
  inEveryStage,
);

export const paymentPortalAction = workspaceAction(
  z.strictObject({}),
  async ({ ctx, actor }) => ({ url: await paymentPortalUrl(ctx, actor) }),
  inEveryStage,
);

export const cancelPlanAction = workspaceAction(
  z.strictObject({}),
  async ({ ctx, actor }) => {
    // With Stripe the subscription is cancelled in its portal; cancelling here alone would leave Stripe charging.
    if (stripeConfig())
      throw new ApiError({
        type: "invalid_request_error",
        code: "cancel_in_portal",
        message: "Cancel in the payment portal: Update payment or cancel.",
      });
    const billing = await cancelPlan(ctx, actor);
    return { endsAt: billing.paidThrough?.toISOString() ?? null };
  },
  inEveryStage,
);
