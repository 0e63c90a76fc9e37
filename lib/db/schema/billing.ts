import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

import { at, createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

export const BILLING_STAGES = ["trial", "active", "overdue", "read_only", "deletion_scheduled", "deleted"] as const;
export type BillingStage = (typeof BILLING_STAGES)[number];

/** Who charges the workspace: Stripe when configured, otherwise the service's operators by hand. */
export const BILLING_PROVIDERS = ["manual", "stripe"] as const;
export type BillingProvider = (typeof BILLING_PROVIDERS)[number];

/** What started a walk down the ladder, which decides its first stage (see ladder-schedule.ts). */
export const LADDER_CAUSES = ["payment_failed", "cancelled", "trial_ended"] as const;
export type LadderCause = (typeof LADDER_CAUSES)[number];

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
  provider: text("provider", { enum: BILLING_PROVIDERS }).notNull().default("manual"),
  stripeCustomerId: text("stripe_customer_id"),
  stripeSubscriptionId: text("stripe_subscription_id"),
  /** The subscription's status as the newest subscription event applied said (`active`, `past_due`…). */
  stripeSubscriptionStatus: text("stripe_subscription_status"),
  /** When Stripe sent that event: an older one arriving later is stale. */
  stripeSubscriptionEventAt: at("stripe_subscription_event_at"),
  /** A move up Stripe reported, applied (plan and allowance) once paid for while the subscription is active. */
  pendingPlan: text("pending_plan"),
  /** When the plan last went down: an invoice paid before it pays for no later move up. */
  planLoweredAt: at("plan_lowered_at"),
  /**
   * The walk down the ladder under way, if any: one billing-ladder run per episode, cancelled by
   * settlement. Its stages fall at fixed offsets from `ladderStartsAt`, pushed later by every
   * paused stretch of the clock (`ladderPausedMs`, plus the open conversation's time so far).
   */
  ladderEpisodeId: text("ladder_episode_id"),
  ladderCause: text("ladder_cause", { enum: LADDER_CAUSES }),
  ladderStartsAt: at("ladder_starts_at"),
  ladderPausedMs: bigint("ladder_paused_ms", { mode: "number" }).notNull().default(0),
  /** Set once a deleted workspace's audience and content are gone. */
  dataDeletedAt: at("data_deleted_at"),
  createdAt: createdAt(),
});

export const INVOICE_STATUSES = ["open", "paid", "failed", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * Invoices and their payment history. Kept when a workspace's data is deleted: the row outlives
 * everything else the workspace had.
 */
export const billingInvoices = pgTable(
  "billing_invoices",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: BILLING_PROVIDERS }).notNull(),
    /** Stripe's invoice id; null for manual invoices. */
    providerInvoiceId: text("provider_invoice_id"),
    /** Stripe's subscription the invoice bills; null for manual invoices. */
    providerSubscriptionId: text("provider_subscription_id"),
    plan: text("plan"),
    /** In the currency's minor unit (cents). */
    amount: integer("amount").notNull(),
    /** Always the workspace's currency. */
    currency: text("currency").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("open"),
    dueAt: at("due_at").notNull(),
    periodStart: at("period_start").notNull(),
    periodEnd: at("period_end").notNull(),
    hostedUrl: text("hosted_url"),
    paidAt: at("paid_at"),
    failedAt: at("failed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("billing_invoices_workspace_idx").on(t.workspaceId, t.createdAt),
    uniqueIndex("billing_invoices_provider_key").on(t.provider, t.providerInvoiceId),
  ],
);

/**
 * Each step of a ladder episode, taken once: the stage it set and whether its mail went out. The key
 * makes a retried or restarted step find itself done, so no owner is mailed twice.
 */
export const billingNotices = pgTable(
  "billing_notices",
  {
    episodeId: text("episode_id").notNull(),
    step: text("step").notNull(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    takenAt: at("taken_at").notNull(),
    /** False when a later step was already due: only the newest is mailed after a long outage. */
    mailed: boolean("mailed").notNull(),
  },
  (t) => [primaryKey({ columns: [t.episodeId, t.step] })],
);

/** Stripe webhook events already applied: Stripe delivers at least once. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: at("received_at").notNull(),
});
