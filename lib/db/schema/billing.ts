import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

export const BILLING_STAGES = ["trial", "active", "overdue", "read_only", "deletion_scheduled", "deleted"] as const;
export type BillingStage = (typeof BILLING_STAGES)[number];

/** One row per workspace: where it stands on the billing ladder and its send allowance. */
export const workspaceBilling = pgTable("workspace_billing", {
  workspaceId: id("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  stage: text("stage", { enum: BILLING_STAGES }).notNull(),
  stageEnteredAt: at("stage_entered_at").notNull(),
  trialEndsAt: at("trial_ends_at"),
  plan: text("plan"),
  /** Fixed at workspace creation. */
  currency: text("currency").notNull().default("usd"),
  sendAllowance: integer("send_allowance").notNull(),
  periodStartedAt: at("period_started_at").notNull(),
  sendsUsed: integer("sends_used").notNull().default(0),
  paidThrough: at("paid_through"),
  cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
  /** The ladder clock pauses while a conversation with the service's team is open. */
  conversationOpenSince: at("conversation_open_since"),
  createdAt: createdAt(),
});
