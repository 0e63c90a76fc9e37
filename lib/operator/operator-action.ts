import "server-only";

import { revalidatePath } from "next/cache";
import type { z } from "zod";

import { defaultCtx, type Ctx } from "@/lib/context";
import type { ActionState } from "@/lib/dashboard/action-state";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";

import { findOperator } from "./operator-session";

/**
 * A server action of the operator area, acting on one object (a workspace, a workflow run) named by
 * its id: asks again who is calling (the page's check does not guard a crafted call), parses the
 * input, and answers refusals next to their fields.
 */
export function operatorAction<S extends z.ZodType, R>(
  schema: S,
  run: (ctx: Ctx, targetId: string, input: z.output<S>, operatorId: string) => Promise<R>,
) {
  return async (targetId: string, input: z.input<S>): Promise<ActionState<R>> => {
    const operator = await findOperator();
    if (!operator) return { ok: false, message: "Only the service's operators can do this.", fieldErrors: {} };
    const parsed = schema.safeParse(input);
    if (typeof targetId !== "string" || !parsed.success)
      return { ok: false, message: "Check the highlighted fields.", fieldErrors: {} };
    try {
      const result = await run(defaultCtx(), targetId, parsed.data, operator.id);
      revalidatePath("/operator", "layout");
      return { ok: true, result };
    } catch (error) {
      if (error instanceof ApiError)
        return { ok: false, message: error.message, fieldErrors: error.param ? { [error.param]: error.message } : {} };
      logger().error({ err: error, operator_id: operator.id, target_id: targetId }, "operator action failed");
      return {
        ok: false,
        message: "Something went wrong on our side; nothing was changed. Try again.",
        fieldErrors: {},
      };
    }
  };
}
