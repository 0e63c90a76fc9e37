"use server";

import { startBulkActionSchema } from "@/lib/contacts/bulk-action-schemas";
import { startBulkAction } from "@/lib/contacts/contact-bulk-actions";
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

// Runs in the background: the screen follows its progress. Unsubscribing and erasing are allowed in a
// read-only workspace too, as for one contact: billing never keeps anyone subscribed or their data held.
export const startBulkActionAction = workspaceAction(
  startBulkActionSchema,
  ({ ctx, actor }, input) => startBulkAction(ctx, actor, input),
  { whileInactive: true },
);
