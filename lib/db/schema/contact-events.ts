import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";

import { at, createdAt, id } from "./columns";
import { contacts } from "./contacts";

/**
 * A custom event the sender's systems sent about a contact (POST /v1/events): it can start
 * automations (trigger `event`), wake runs waiting for it and answer "did they do N" conditions.
 * Its properties stay here: they never become merge tags (the contract has only `contact` and `brand`).
 */
export const contactEvents = pgTable(
  "contact_events",
  {
    id: id("id").primaryKey(),
    // No foreign key to workspaces: see contacts.
    workspaceId: id("workspace_id").notNull(),
    // Erasing (deleting) the contact takes its events, properties and all.
    contactId: id("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    properties: jsonb("properties").$type<Record<string, unknown>>().notNull().default({}),
    /** When it happened, as the sender says (defaults to when it was received). */
    occurredAt: at("occurred_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // "Did contact X get event N since T" (an automation's event condition): one range scan.
    index("contact_events_contact_name_idx").on(t.contactId, t.name, t.occurredAt),
    index("contact_events_workspace_idx").on(t.workspaceId, t.id),
  ],
);
