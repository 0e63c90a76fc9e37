"use server";

import { contactListSchema, editContactSchema } from "@/lib/contacts/contact-schemas";
import { editContact } from "@/lib/contacts/edit-contact";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";

export const editContactAction = workspaceAction(editContactSchema, ({ ctx, actor }, input) =>
  editContact(ctx, actor, input),
);

export const addToListAction = workspaceAction(contactListSchema, ({ ctx, actor }, { contactId, listId }) =>
  addListMembers(ctx, actor, listId, [contactId]),
);

// Taking someone off a list unsubscribes them from nothing.
export const removeFromListAction = workspaceAction(contactListSchema, ({ ctx, actor }, { contactId, listId }) =>
  removeListMembers(ctx, actor, listId, [contactId]),
);
