import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";

import { brands } from "./brands";
import { at, createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

export const topics = pgTable(
  "topics",
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
    /** Double opt-in is the default. */
    requiresConfirmation: boolean("requires_confirmation").notNull().default(true),
    /** An archived topic answers `topic_not_found`, like one that never existed. */
    archivedAt: at("archived_at"),
    createdAt: createdAt(),
  },
  // GET /v1/topics: newest first per workspace.
  (t) => [index("topics_workspace_idx").on(t.workspaceId, t.id)],
);
