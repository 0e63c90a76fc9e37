import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";

import { createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

/** A campaign body kept to start new campaigns from: the editor's document, or hand-written HTML. */
export const templates = pgTable(
  "templates",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    document: jsonb("document").$type<Record<string, unknown>>(),
    html: text("html").notNull(),
    text: text("text"),
    createdAt: createdAt(),
  },
  (t) => [index("templates_workspace_idx").on(t.workspaceId, t.id)],
);
