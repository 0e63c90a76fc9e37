import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";

// Relative: drizzle-kit reads this file without the project's path aliases.
import { BULK_ACTION_KINDS } from "../../contacts/bulk-action-schemas";
import { at, createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

export const BULK_ACTION_STATUSES = ["running", "completed", "failed"] as const;
export type BulkActionStatus = (typeof BULK_ACTION_STATUSES)[number];

/** Whom a bulk action is for: the contacts picked one by one, or every contact the table's filters match. */
export type BulkSelection =
  { ids: string[] } | { filters: { status?: string; topicId?: string; listId?: string; search?: string } };

/**
 * One action on many contacts from the contacts table (add to or remove from a list, unsubscribe at
 * their request, erase), run by the `contact-bulk-action` workflow in chunks of contacts in id
 * order: each chunk commits with the cursor past it, so a run resumed after a crash carries on and
 * acts on no contact twice.
 */
export const contactBulkActions = pgTable(
  "contact_bulk_actions",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: BULK_ACTION_KINDS }).notNull(),
    selection: jsonb("selection").$type<BulkSelection>().notNull(),
    /** For the list actions. */
    listId: id("list_id"),
    /** For unsubscribe: the topic, or null for everything. */
    topicId: id("topic_id"),
    /** For unsubscribe: how the people asked, kept with each opt-out. */
    note: text("note"),
    status: text("status", { enum: BULK_ACTION_STATUSES }).notNull().default("running"),
    /** How many contacts the selection held when counted, at the start of the run; null until then. */
    total: integer("total"),
    /** Contacts acted on (or passed over, as already done) so far. */
    done: integer("done").notNull().default(0),
    /** The last contact id of the last chunk committed. */
    after: id("after"),
    /** Who started it, as actorLabel writes it. */
    madeBy: text("made_by").notNull(),
    error: text("error"),
    createdAt: createdAt(),
    finishedAt: at("finished_at"),
  },
  (t) => [index("contact_bulk_actions_workspace_idx").on(t.workspaceId, t.id)],
);
