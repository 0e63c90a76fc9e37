import { index, pgTable, text } from "drizzle-orm/pg-core";

import { createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

export const ON_BEHALF_SCOPES = ["topic", "brand", "all"] as const;

/**
 * An opt-out a sender made for the person (who asked by phone, by letter, in a
 * reply): who made it, and the note they wrote of how the person asked. The
 * opt-out itself is the same as the person's own (subscriptions, the contact's
 * opted_out_at, the contact.unsubscribed event); this is its account, shown
 * beside that event in the contact's timeline and in the contact's data export.
 */
export const optOutsOnBehalf = pgTable(
  "opt_outs_on_behalf",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    // No foreign keys to contacts or events, as on subscriptions: nothing deletes either but the
    // workspace's deletion, which takes these first (deleteNextChunk).
    contactId: id("contact_id").notNull(),
    /** The contact.unsubscribed event the opt-out recorded. */
    eventId: id("event_id"),
    scope: text("scope", { enum: ON_BEHALF_SCOPES }).notNull(),
    /** Set for scope topic. The dashboard offers topic and all. */
    topicId: id("topic_id"),
    /** Who made it, as actorLabel writes it (`user:<id>` for a member). */
    madeBy: text("made_by").notNull(),
    note: text("note").notNull(),
    createdAt: createdAt(),
  },
  // The contact's page and its data export read a contact's opt-outs.
  (t) => [index("opt_outs_on_behalf_contact_idx").on(t.contactId)],
);
