import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";

import type { SegmentRule } from "../../segments/segment-rule-schema";
import { createdAt, id, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/**
 * A saved rule over contacts (lib/segments/). It narrows who a campaign considers, as a list does;
 * consent stays on the topic, and a segment is always evaluated for one topic.
 */
export const segments = pgTable(
  "segments",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    rule: jsonb("rule").$type<SegmentRule>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("segments_workspace_idx").on(t.workspaceId, t.id)],
);
