"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";

import { defaultCtx } from "@/lib/context";
import type { ActionState } from "@/lib/dashboard/action-state";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { findOperator } from "@/lib/operator/operator-session";
import { reviewBrand, reviewWorkspace } from "@/lib/operator/review-decisions";

const decisionSchema = z.strictObject({
  id: z.string().min(1),
  decision: z.enum(["approve", "reject"]),
  reason: z.string().max(2000),
  seenUpdatedAt: z.iso.datetime().optional(),
});

/** Every operator action asks again who is calling: the page's check does not guard a crafted call. */
async function asOperator<R>(
  input: unknown,
  run: (values: z.output<typeof decisionSchema>, reviewer: string) => Promise<R>,
): Promise<ActionState<R>> {
  const operator = await findOperator();
  if (!operator) return { ok: false, message: "Only the service's operators can review.", fieldErrors: {} };
  const parsed = decisionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: "Check the decision and its reason.", fieldErrors: {} };
  try {
    const result = await run(parsed.data, operator.id);
    revalidatePath("/operator");
    return { ok: true, result };
  } catch (error) {
    if (error instanceof ApiError)
      return {
        ok: false,
        message: error.message.replace(/^reason: /, ""),
        fieldErrors: error.param ? { [error.param]: error.message.replace(/^reason: /, "") } : {},
      };
    logger().error({ err: error, operator_id: operator.id }, "operator action failed");
    return { ok: false, message: "Something went wrong on our side; nothing was changed. Try again.", fieldErrors: {} };
  }
}

type DecisionInput = { id: string; decision: "approve" | "reject"; reason: string; seenUpdatedAt?: string };

export async function reviewWorkspaceAction(input: DecisionInput) {
  return asOperator(input, (values, reviewer) =>
    reviewWorkspace(defaultCtx(), values.id, { decision: values.decision, reason: values.reason, reviewer }),
  );
}

export async function reviewBrandAction(input: DecisionInput) {
  return asOperator(input, (values, reviewer) =>
    reviewBrand(defaultCtx(), values.id, {
      ...values,
      reviewer,
      seenUpdatedAt: values.seenUpdatedAt ? new Date(values.seenUpdatedAt) : undefined,
    }),
  );
}
