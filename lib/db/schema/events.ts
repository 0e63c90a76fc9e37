import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

/**
 * The event outbox: every state change the Events section names, written in
 * the same transaction as the change. Webhook delivery reads from here.
 * Test-key actions record nothing.
 */
export const events = pgTable(
  "events",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    occurredAt: at("occurred_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("events_workspace_idx").on(t.workspaceId, t.id)],
);
