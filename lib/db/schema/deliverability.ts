import { doublePrecision, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";

import { campaigns } from "./campaigns";
import { at, id, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/**
 * A workspace's own deliverability settings; no row means the defaults (guardrail-thresholds.ts).
 * Rates are percentages (0.3 is 0.3 %).
 */
export const deliverabilitySettings = pgTable("deliverability_settings", {
  workspaceId: id("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  complaintWarnPercent: doublePrecision("complaint_warn_percent").notNull(),
  complaintStopPercent: doublePrecision("complaint_stop_percent").notNull(),
  hardBounceWarnPercent: doublePrecision("hard_bounce_warn_percent").notNull(),
  hardBounceStopPercent: doublePrecision("hard_bounce_stop_percent").notNull(),
  minimumDelivered: integer("minimum_delivered").notNull(),
  updatedAt: updatedAt(),
});

export const GUARDRAIL_REASONS = ["complaint_rate", "hard_bounce_rate"] as const;
export type GuardrailReason = (typeof GUARDRAIL_REASONS)[number];
export const GUARDRAIL_SCOPES = ["campaign", "brand"] as const;
export type GuardrailScope = (typeof GUARDRAIL_SCOPES)[number];

/** Counts the guardrail judges: mail that reached the recipient's provider, complaints and permanent bounces. */
export interface HarmCounts {
  delivered: number;
  complained: number;
  hardBounced: number;
}

/**
 * The guardrail's record of one campaign. `hard_bounced` counts its sends' first permanent bounce
 * (the report counters count bounces of any type). `pause_reason` is set while the campaign stands
 * paused by the guardrail, with the figures it stopped on; a resume clears it and keeps the counts
 * the person acknowledged, from which the guardrail judges again (docs/readings.md, "Guardrails:
 * pausing on harm").
 */
export const campaignGuardrails = pgTable("campaign_guardrails", {
  campaignId: id("campaign_id")
    .primaryKey()
    .references(() => campaigns.id, { onDelete: "cascade" }),
  workspaceId: id("workspace_id").notNull(),
  hardBounced: integer("hard_bounced").notNull().default(0),
  pauseReason: text("pause_reason", { enum: GUARDRAIL_REASONS }),
  pauseScope: text("pause_scope", { enum: GUARDRAIL_SCOPES }),
  pausedOn: jsonb("paused_on").$type<{ campaign: HarmCounts; brand: HarmCounts }>(),
  acknowledged: jsonb("acknowledged").$type<{ campaign: HarmCounts; brand: HarmCounts }>(),
  acknowledgedAt: at("acknowledged_at"),
  /** Who resumed it: a member's user id, or `operator` for the admin CLI. */
  acknowledgedBy: text("acknowledged_by"),
});
