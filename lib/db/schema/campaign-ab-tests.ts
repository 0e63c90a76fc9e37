import { integer, jsonb, pgTable, smallint, text } from "drizzle-orm/pg-core";

import { campaigns } from "./campaigns";
import { at, createdAt, id, updatedAt } from "./columns";

export const AB_DIMENSIONS = ["subject", "sender_name", "content"] as const;
export type AbDimension = (typeof AB_DIMENSIONS)[number];
/** Clicks by default: machine opens (Apple Mail Privacy Protection, link scanners) inflate opens. */
export const AB_METRICS = ["clicks", "human_opens"] as const;
export type AbMetric = (typeof AB_METRICS)[number];

/**
 * A campaign's A/B test (docs/readings.md, "A/B tests"): 2–3 values of one dimension, sent at random
 * to a test share of the audience; the rest wait (queued sends without a variant) until a winner is
 * chosen, by the metric after the wait or by a person sooner, and then get the winner.
 */
export const campaignAbTests = pgTable("campaign_ab_tests", {
  campaignId: id("campaign_id")
    .primaryKey()
    .references(() => campaigns.id, { onDelete: "cascade" }),
  workspaceId: id("workspace_id").notNull(),
  dimension: text("dimension", { enum: AB_DIMENSIONS }).notNull(),
  /** Variant A, B and maybe C: a subject, a sender name, or an HTML body, by dimension. */
  variants: jsonb("variants").$type<string[]>().notNull(),
  /** Percent of the audience in the test; null: everyone (a small audience), nobody waits. */
  testPercent: integer("test_percent"),
  metric: text("metric", { enum: AB_METRICS }).notNull().default("clicks"),
  waitMinutes: integer("wait_minutes").notNull().default(120),
  /** When dispatch gave the test share its variants (once), and how many sends that took. */
  assignedAt: at("assigned_at"),
  testSends: integer("test_sends"),
  /** When the winner is chosen by the metric: the test share sent, plus the wait. */
  decideAt: at("decide_at"),
  /** The winning variant's index; set once, by the workflow or by a person. */
  winner: smallint("winner"),
  /** `metric` (the workflow after the wait) or the user id of the person who picked it. */
  winnerPickedBy: text("winner_picked_by"),
  winnerPickedAt: at("winner_picked_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
