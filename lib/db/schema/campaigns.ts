import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

import { brands } from "./brands";
import { at, createdAt, id, updatedAt } from "./columns";
import { lists } from "./lists";
import { segments } from "./segments";
import { topics } from "./topics";
import { workspaces } from "./workspaces";

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "paused", "sent", "cancelled"] as const;
export const SEGMENT_MODES = ["include", "exclude"] as const;
export type SegmentMode = (typeof SEGMENT_MODES)[number];

export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** One send to one topic, optionally narrowed to a list. */
export const campaigns = pgTable(
  "campaigns",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    brandId: id("brand_id")
      .notNull()
      .references(() => brands.id),
    topicId: id("topic_id")
      .notNull()
      .references(() => topics.id),
    listId: id("list_id").references(() => lists.id),
    /** A segment that narrows the audience further: only those it matches (`include`), or all but them (`exclude`). */
    segmentId: id("segment_id").references(() => segments.id),
    segmentMode: text("segment_mode", { enum: SEGMENT_MODES }),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    /** The inbox's line after the subject (a hidden preheader at the top of the body). */
    previewText: text("preview_text"),
    html: text("html").notNull(),
    text: text("text"),
    /** The block editor's document when the body was written in it; `html` and `text` are rendered from it. */
    document: jsonb("document").$type<Record<string, unknown>>(),
    /** Sent to inactive contacts too, whatever the workspace's sunset (docs/readings.md, "Sunset of inactive contacts"). */
    includeInactive: boolean("include_inactive").notNull().default(false),
    /**
     * The sent campaign this one resends to those who did not open it (docs/readings.md, "Resending to
     * non-openers"): its audience is narrowed to that campaign's recipients without an open of their own.
     */
    resendOf: id("resend_of").references((): AnyPgColumn => campaigns.id, { onDelete: "cascade" }),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    scheduledAt: at("scheduled_at"),
    /**
     * Sent "at a local time" (docs/readings.md, "Sending at a local time"): each recipient gets it at
     * `local_time` (HH:MM) on `local_date` (YYYY-MM-DD) in their own time zone. `scheduled_at` is then the
     * first slice, when dispatch takes the audience. Null for a campaign sent at one instant.
     */
    localDate: text("local_date"),
    localTime: text("local_time"),
    /** When dispatch started: the campaign's send time in reports. */
    sentAt: at("sent_at"),
    completedAt: at("completed_at"),
    pausedAt: at("paused_at"),
    cancelledAt: at("cancelled_at"),
    /** Sends created when dispatch started; set when the whole audience snapshot is taken. */
    recipientCount: integer("recipient_count"),
    /** The start of every send id of this campaign, chosen when the snapshot begins: its sends are one key range. */
    sendIdPrefix: text("send_id_prefix"),
    /** Set while dispatch sleeps until a limit lifts: until when, and why (`warm_up_cap`: its domain's cap for the day is used). */
    waitingUntil: at("waiting_until"),
    waitingReason: text("waiting_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("campaigns_workspace_idx").on(t.workspaceId, t.id),
    // GET /v1/reports/campaigns: sent campaigns newest first by send time.
    index("campaigns_workspace_sent_idx").on(t.workspaceId, t.sentAt),
    // Two campaigns sharing a prefix would share a key range: a clash fails the plan, which is retried with a new one.
    uniqueIndex("campaigns_send_id_prefix_key").on(t.sendIdPrefix),
    // A campaign is resent to its non-openers once.
    uniqueIndex("campaigns_resend_of_key").on(t.resendOf),
  ],
);

/**
 * The audience snapshot of a large campaign is taken in parts, one contact-id range each, written
 * side by side in their own transactions (the machine's cores work at once). A part is taken once:
 * `recipients` is set in the transaction that wrote its sends, so a retried snapshot skips it.
 */
export const audienceSnapshotParts = pgTable(
  "audience_snapshot_parts",
  {
    campaignId: id("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    /** Contact ids from (inclusive) and to (exclusive); null is open-ended. */
    fromContactId: id("from_contact_id"),
    toContactId: id("to_contact_id"),
    recipients: integer("recipients"),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.part] })],
);
