"use server";

import { contactListSchema, editContactNamesSchema } from "@/lib/contacts/contact-schemas";
import { editContactNames } from "@/lib/contacts/edit-contact-names";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";

export const editContactNamesAction = workspaceAction(editContactNamesSchema, ({ ctx, actor }, input) =>
  editContactNames(ctx, actor, input),
);

export const addToListAction = workspaceAction(contactListSchema, ({ ctx, actor }, { contactId, listId }) =>
  addListMembers(ctx, actor, listId, [contactId]),
);

// Taking someone off a list unsubscribes them from nothing.
export const removeFromListAction = workspaceAction(contactListSchema, ({ ctx, actor }, { contactId, listId }) =>
  removeListMembers(ctx, actor, listId, [contactId]),
);
