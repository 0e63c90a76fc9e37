import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

import { brands } from "./brands";
import { createdAt, id } from "./columns";
import { contacts } from "./contacts";
import { workspaces } from "./workspaces";

export const lists = pgTable(
  "lists",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    brandId: id("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    createdAt: createdAt(),
  },
  // GET /v1/lists: newest first per workspace.
  (t) => [index("lists_workspace_idx").on(t.workspaceId, t.id)],
);

export const listMembers = pgTable(
  "list_members",
  {
    listId: id("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    contactId: id("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    addedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.contactId] }),
    // Removing a contact, and narrowing a campaign audience to a list, join from the contact side.
    index("list_members_contact_idx").on(t.contactId),
  ],
);
