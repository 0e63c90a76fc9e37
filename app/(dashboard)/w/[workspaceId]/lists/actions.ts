"use server";

import { z } from "zod";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { createList } from "@/lib/lists/create-list";
import { deleteList } from "@/lib/lists/delete-list";
import { createListSchema, updateListSchema } from "@/lib/lists/list-schemas";
import { updateList } from "@/lib/lists/update-list";

export const createListAction = workspaceAction(createListSchema, ({ ctx, actor }, input) =>
  createList(ctx, actor, input),
);

export const updateListAction = workspaceAction(
  updateListSchema.extend({ listId: z.string() }),
  ({ ctx, actor }, { listId, ...changes }) => updateList(ctx, actor, listId, changes),
);

export const deleteListAction = workspaceAction(z.strictObject({ listId: z.string() }), ({ ctx, actor }, { listId }) =>
  deleteList(ctx, actor, listId),
);
