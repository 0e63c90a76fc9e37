"use server";

import { addContactSchema } from "@/lib/contacts/contact-schemas";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { workspaceAction } from "@/lib/dashboard/workspace-action";

// The same rules as POST /v1/contacts: an opted-out address is refused whole and nothing changes.
export const addContactAction = workspaceAction(
  addContactSchema,
  async ({ ctx, actor }, { consentAsserted: _asserted, ...input }) => {
    const { contact, created } = await upsertContact(ctx, actor, input);
    return { contactId: contact.id, created };
  },
);
