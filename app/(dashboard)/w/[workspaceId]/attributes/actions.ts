"use server";

import { defineAttributeSchema } from "@/lib/contacts/attribute-schemas";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { workspaceAction } from "@/lib/dashboard/workspace-action";

export const defineAttributeAction = workspaceAction(defineAttributeSchema, ({ ctx, actor }, input) =>
  defineAttribute(ctx, actor, input),
);
