"use server";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { checkImport } from "@/lib/imports/check-import";
import { cancelImport, startImport } from "@/lib/imports/import-actions";
import { checkImportFormSchema, importIdSchema } from "@/lib/imports/import-schemas";

export const checkImportAction = workspaceAction(
  checkImportFormSchema,
  async ({ ctx, actor }, { importId, ...input }) => checkImport(ctx, actor, importId, input),
);

export const startImportAction = workspaceAction(importIdSchema, async ({ ctx, actor }, { importId }) =>
  startImport(ctx, actor, importId),
);

export const cancelImportAction = workspaceAction(importIdSchema, async ({ ctx, actor }, { importId }) =>
  cancelImport(ctx, actor, importId),
);
