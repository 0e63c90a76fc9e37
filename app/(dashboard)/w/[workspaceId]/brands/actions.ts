"use server";

import { z } from "zod";
import { createBrand } from "@/lib/brands/create-brand";
import { createBrandSchema, updateBrandSchema } from "@/lib/brands/brand-schemas";
import { updateBrand } from "@/lib/brands/update-brand";
import { workspaceAction } from "@/lib/dashboard/workspace-action";

export const createBrandAction = workspaceAction(createBrandSchema, ({ ctx, actor }, input) => createBrand(ctx, actor, input));

export const updateBrandAction = workspaceAction(z.strictObject({ brandId: z.string(), changes: updateBrandSchema }), async ({ ctx, actor }, { brandId, changes }) => {
  const { identityEdited } = await updateBrand(ctx, actor, brandId, changes);
  return { identityEdited };
});
