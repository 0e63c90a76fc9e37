import { check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

export const SUPPRESSION_REASONS = ["manual", "bounce", "complaint", "soft_bounce"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** A hard block on an address or on every address at a domain. */
export const suppressions = pgTable(
  "suppressions",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email"),
    domain: text("domain"),
    reason: text("reason", { enum: SUPPRESSION_REASONS }).notNull(),
    note: text("note").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("suppressions_email_key").on(t.workspaceId, t.email),
    uniqueIndex("suppressions_domain_key").on(t.workspaceId, t.domain),
    // GET /v1/suppressions: newest first per workspace.
    index("suppressions_workspace_idx").on(t.workspaceId, t.id),
    check("suppressions_email_xor_domain", sql`(${t.email} is null) <> (${t.domain} is null)`),
  ],
);
