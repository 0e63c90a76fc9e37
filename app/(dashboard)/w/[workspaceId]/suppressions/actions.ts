"use server";

import { z } from "zod";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { deleteSuppression } from "@/lib/suppressions/delete-suppression";
import { createSuppressionSchema } from "@/lib/suppressions/suppression-schemas";

export const createSuppressionAction = workspaceAction(createSuppressionSchema, async ({ ctx, actor }, input) => {
  const { suppression, created } = await createSuppression(ctx, actor, input);
  return { suppressionId: suppression.id, created };
});

export const deleteSuppressionAction = workspaceAction(
  z.strictObject({
    suppressionId: z.string(),
    reason: z.string().trim().min(3, "say why, for whoever reads this later").max(500),
  }),
  ({ ctx, actor }, { suppressionId, reason }) => deleteSuppression(ctx, actor, suppressionId, reason),
);
