import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

import { at, createdAt, id, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export type AttributeValue = string | number | boolean;

/**
 * What the dashboard sorts names by: "first last", lower-case, '' for a contact without a name.
 * The index below and lib/contacts/list-contacts.ts use this same text, so PostgreSQL matches them.
 */
export const CONTACT_NAME_KEY_SQL = `lower(btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')))`;

export const contacts = pgTable(
  "contacts",
  {
    id: id("id").primaryKey(),
    // No foreign key to workspaces, here or on subscriptions and events: PostgreSQL checks a key
    // row by row (about 12 µs each, measured on an import: a third of its time), and a workspace
    // row is never deleted (deleteNextChunk removes its data, in an order of its own, and keeps the row).
    workspaceId: id("workspace_id").notNull(),
    /** Normalised: trimmed, NFC, lower-case. Unique per workspace. */
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    attributes: jsonb("attributes").$type<Record<string, AttributeValue>>().notNull().default({}),
    /** An IANA time zone, as lib/contacts/time-zone.ts names it; null when not known. Not part of the /v1 contact. */
    timeZone: text("time_zone"),
    /** Opted out of everything (scope `all`). */
    optedOutAt: at("opted_out_at"),
    /** Transient bounces in a row with no delivery between; at 5 the address gets a soft_bounce suppression. */
    transientBounceStreak: integer("transient_bounce_streak").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also serves the dashboard's search by address prefix (`email like 'x%'`) where the column's
    // collation is C, as in the embedded database; under other collations LIKE cannot use it.
    uniqueIndex("contacts_workspace_email_key").on(t.workspaceId, t.email),
    // GET /v1/contacts: keyset pagination newest first (id order is creation order).
    index("contacts_workspace_idx").on(t.workspaceId, t.id),
    // The dashboard's search by name prefix (`lower(first_name) like 'x%'`): with the address's
    // index above, PostgreSQL ORs the three and finds a rare prefix without walking the workspace
    // newest first. text_pattern_ops lets LIKE use them whatever the server's collation.
    index("contacts_workspace_first_name_idx").on(t.workspaceId, sql`lower(${t.firstName}) text_pattern_ops`),
    index("contacts_workspace_last_name_idx").on(t.workspaceId, sql`lower(${t.lastName}) text_pattern_ops`),
    // The dashboard's sort by name (sort=name, name_desc): keyset pages on (nameless, name, id), so
    // contacts without a name come after the named ones, and a page is a walk of this index from the
    // cursor, not a sort of the workspace. The first-name index above cannot serve it: a common first
    // name would be a run of thousands of rows to sort by id.
    index("contacts_workspace_name_sort_idx").on(
      t.workspaceId,
      sql.raw(`(${CONTACT_NAME_KEY_SQL} = '')`),
      sql.raw(CONTACT_NAME_KEY_SQL),
      t.id,
    ),
  ],
);

export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "date"] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Custom contact attributes a workspace has defined; no other keys are accepted. */
export const attributeDefinitions = pgTable(
  "attribute_definitions",
  {
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    type: text("type", { enum: ATTRIBUTE_TYPES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
);
