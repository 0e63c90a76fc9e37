"use server";

import { z } from "zod";

import { createBrandSchema, updateBrandSchema } from "@/lib/brands/brand-schemas";
import { createBrand } from "@/lib/brands/create-brand";
import { updateBrand } from "@/lib/brands/update-brand";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { ApiError } from "@/lib/errors";

export const createBrandAction = workspaceAction(createBrandSchema, ({ ctx, actor }, input) =>
  createBrand(ctx, actor, input),
);

export const updateBrandAction = workspaceAction(
  z.strictObject({ brandId: z.string(), changes: updateBrandSchema }),
  async ({ ctx, actor }, { brandId, changes }) => {
    try {
      const { identityEdited } = await updateBrand(ctx, actor, brandId, changes);
      return { identityEdited };
    } catch (error) {
      // The form's fields sit under `changes`: a refusal naming a field shows beside it.
      if (error instanceof ApiError && error.param && error.param in changes) {
        throw new ApiError({
          type: error.type,
          code: error.code,
          message: error.message,
          param: `changes.${error.param}`,
          status: error.status,
        });
      }
      throw error;
    }
  },
);
