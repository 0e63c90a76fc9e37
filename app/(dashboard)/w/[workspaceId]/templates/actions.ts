"use server";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { deleteTemplate } from "@/lib/templates/delete-template";
import { duplicateTemplate } from "@/lib/templates/duplicate-template";
import { renameTemplate } from "@/lib/templates/rename-template";
import { renameTemplateSchema, templateIdSchema, updateTemplateSchema } from "@/lib/templates/template-schemas";
import { updateTemplate } from "@/lib/templates/update-template";

export const renameTemplateAction = workspaceAction(renameTemplateSchema, ({ ctx, actor }, input) =>
  renameTemplate(ctx, actor, input),
);

export const updateTemplateAction = workspaceAction(updateTemplateSchema, ({ ctx, actor }, input) =>
  updateTemplate(ctx, actor, input),
);

export const duplicateTemplateAction = workspaceAction(templateIdSchema, ({ ctx, actor }, { templateId }) =>
  duplicateTemplate(ctx, actor, templateId),
);

export const deleteTemplateAction = workspaceAction(templateIdSchema, ({ ctx, actor }, { templateId }) =>
  deleteTemplate(ctx, actor, templateId),
);
