import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id, updatedAt } from "./columns";
import { brands } from "./brands";
import { lists } from "./lists";
import { topics } from "./topics";
import { workspaces } from "./workspaces";

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "paused", "sent", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** One send to one topic, optionally narrowed to a list. */
export const campaigns = pgTable(
  "campaigns",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    brandId: id("brand_id").notNull().references(() => brands.id),
    topicId: id("topic_id").notNull().references(() => topics.id),
    listId: id("list_id").references(() => lists.id),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text"),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    scheduledAt: at("scheduled_at"),
    /** When dispatch started: the campaign's send time in reports. */
    sentAt: at("sent_at"),
    completedAt: at("completed_at"),
    pausedAt: at("paused_at"),
    cancelledAt: at("cancelled_at"),
    /** Sends created when dispatch started. */
    recipientCount: integer("recipient_count"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("campaigns_workspace_idx").on(t.workspaceId, t.id),
    // GET /v1/reports/campaigns: sent campaigns newest first by send time.
    index("campaigns_workspace_sent_idx").on(t.workspaceId, t.sentAt),
  ],
);
