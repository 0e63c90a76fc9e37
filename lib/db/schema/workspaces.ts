import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";

import { at, createdAt, id } from "./columns";

export const MERGE_POLICIES = ["keep_existing", "overwrite", "per_field"] as const;
export type MergePolicy = (typeof MERGE_POLICIES)[number];

export const workspaces = pgTable("workspaces", {
  id: id("id").primaryKey(),
  name: text("name").notNull(),
  mergePolicy: text("merge_policy", { enum: MERGE_POLICIES }).notNull().default("per_field"),
  /** Set when the service's review is done; until then the workspace mails only its verified addresses. */
  approvedAt: at("approved_at"),
  /** Set when the service's review rejected the workspace; cleared by an approval. */
  reviewRejectedAt: at("review_rejected_at"),
  /** The reviewer's words on the last decision, mailed to the owners. */
  reviewNote: text("review_note"),
  /** The operator who took the last decision (their user id). */
  reviewedBy: text("reviewed_by"),
  /** The last decision was taken by an operator who is a member of the workspace, allowed only where no other operator could take it. */
  selfReviewed: boolean("self_reviewed").notNull().default(false),
  /**
   * The sunset of inactive contacts (docs/readings.md): off until a member turns it on, since it leaves
   * people out of campaigns. Inactive after this many campaigns, or this many days, without a human
   * open or click; either may be null, not both while it is on.
   */
  sunsetEnabled: boolean("sunset_enabled").notNull().default(false),
  sunsetAfterCampaigns: integer("sunset_after_campaigns"),
  sunsetAfterDays: integer("sunset_after_days"),
  /**
   * The zone a campaign sent "at a local time" uses for contacts without one of their own (docs/readings.md,
   * "Sending at a local time"); an IANA name as lib/contacts/time-zone.ts names it.
   */
  timeZone: text("time_zone").notNull().default("UTC"),
  createdAt: createdAt(),
});
