import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import { at, createdAt, id } from "./columns";
import { providerEvents } from "./provider-events";
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
    /** The provider's report behind a bounce or complaint suppression: shown as its evidence. */
    evidenceEventId: id("evidence_event_id").references(() => providerEvents.id, { onDelete: "set null" }),
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

/**
 * A suppression someone lifted: what it was, its evidence, why it was lifted
 * and by whom. The suppression row itself is gone (sending resumes); this
 * keeps the account of it.
 */
export const suppressionLifts = pgTable(
  "suppression_lifts",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    suppressionId: id("suppression_id").notNull(),
    email: text("email"),
    domain: text("domain"),
    reason: text("reason", { enum: SUPPRESSION_REASONS }).notNull(),
    evidenceEventId: id("evidence_event_id").references(() => providerEvents.id, { onDelete: "set null" }),
    /** Why it was lifted, as the person wrote it. */
    liftReason: text("lift_reason").notNull(),
    /** Who lifted it: a user's id, or an API key's id. */
    liftedBy: text("lifted_by").notNull(),
    suppressedAt: at("suppressed_at").notNull(),
    liftedAt: at("lifted_at").notNull(),
  },
  (t) => [index("suppression_lifts_workspace_idx").on(t.workspaceId, t.email)],
);
