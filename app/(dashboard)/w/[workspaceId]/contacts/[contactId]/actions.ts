"use server";

import { contactListSchema, editContactSchema, eraseContactSchema } from "@/lib/contacts/contact-schemas";
import { editContact } from "@/lib/contacts/edit-contact";
import { eraseContactConfirmed } from "@/lib/contacts/erase-contacts";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { addListMembers, removeListMembers } from "@/lib/lists/list-membership";
import { unsubscribeOnBehalfSchema } from "@/lib/subscriptions/subscription-schemas";
import { unsubscribeOnBehalf } from "@/lib/subscriptions/unsubscribe-on-behalf";

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

// For the person, who asked some other way than a link: the same opt-out as theirs. Nothing here resubscribes.
// Allowed in a read-only workspace too, as the person's own link is: billing never keeps someone subscribed.
export const unsubscribeOnBehalfAction = workspaceAction(
  unsubscribeOnBehalfSchema,
  ({ ctx, actor }, input) => unsubscribeOnBehalf(ctx, actor, input),
  { whileInactive: true },
);

// At the person's request: nothing of them is left but a fingerprint of the address. Allowed in a
// read-only workspace too: billing never keeps someone's data past their request.
export const eraseContactAction = workspaceAction(
  eraseContactSchema,
  ({ ctx, actor }, input) => eraseContactConfirmed(ctx, actor, input),
  { whileInactive: true },
);
