"use server";

import { z } from "zod";

import { createApiKey } from "@/lib/api-keys/create-api-key";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { deleteSignupForm } from "@/lib/forms/get-signup-form";
import { createSignupForm, updateSignupForm } from "@/lib/forms/save-signup-form";
import { signupFormSchema } from "@/lib/forms/signup-form-schemas";
import { originField } from "@/lib/validation/fields";

export const createSignupFormAction = workspaceAction(signupFormSchema, ({ ctx, actor }, input) =>
  createSignupForm(ctx, actor, input),
);

export const updateSignupFormAction = workspaceAction(
  signupFormSchema.extend({ formId: z.string() }),
  ({ ctx, actor }, { formId, ...input }) => updateSignupForm(ctx, actor, formId, input),
);

export const deleteSignupFormAction = workspaceAction(
  z.strictObject({ formId: z.string() }),
  ({ ctx, actor }, { formId }) => deleteSignupForm(ctx, actor, formId),
);

/** A publishable key made from the form editor: the form never shows the key itself, only uses it. */
export const createFormKeyAction = workspaceAction(
  z.strictObject({
    brandId: z.string().optional(),
    origins: z.array(originField).max(50),
    environment: z.enum(["live", "test"]),
  }),
  async ({ ctx, actor }, { brandId, origins, environment }) => {
    const { keyId } = await createApiKey(ctx, actor, {
      kind: "publishable",
      environment,
      brandId,
      origins,
      name: "Signup form",
    });
    return { keyId };
  },
);
