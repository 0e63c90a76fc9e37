import { customType, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

import { at, id } from "./columns";

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/**
 * What is left of an erased contact: a keyed hash of the address (HMAC-SHA256,
 * see lib/contacts/erased-address.ts), never the address itself, so that an
 * import, POST /v1/contacts or a list add can refuse to bring the person back
 * (`contact_erased`) while nobody can read back who it was. The person's own
 * signup, confirmed from their mailbox, may start afresh.
 */
export const erasedContacts = pgTable(
  "erased_contacts",
  {
    // No foreign key to workspaces, as on contacts: deleteNextChunk removes a workspace's rows.
    workspaceId: id("workspace_id").notNull(),
    addressHash: bytea("address_hash").notNull(),
    /** The erased contact's id (a random id, nothing personal): a list add naming it is told why it failed. */
    contactId: id("contact_id").notNull(),
    /** Who erased it, as actorLabel writes it (`user:<id>`, `key:<id>`, `system:<reason>`). */
    erasedBy: text("erased_by").notNull(),
    erasedAt: at("erased_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.addressHash] }),
    index("erased_contacts_contact_idx").on(t.workspaceId, t.contactId),
  ],
);
