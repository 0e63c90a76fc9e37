import { bigint, bigserial, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

import { brands } from "./brands";
import { campaigns } from "./campaigns";
import { at, id } from "./columns";
import { workspaces } from "./workspaces";

// Report figures, maintained as changes happen (see lib/db/sql/reports.sql): the report
// endpoints read these rows and never count raw rows per request. Audience and campaign state are
// kept in the writing transaction by triggers; first deliveries, opens and clicks are queued and
// folded in by the `fold-report-counters` cron (at most 30 s late).

const count = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

/** Per workspace: the contact status buckets (subscribed = total − the other three). */
export const reportWorkspaceCounters = pgTable("report_workspace_counters", {
  workspaceId: id("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  contactsTotal: count("contacts_total"),
  contactsUnsubscribed: count("contacts_unsubscribed"),
  contactsBounced: count("contacts_bounced"),
  contactsComplained: count("contacts_complained"),
  /** Bumped with every change of the figures above: part of the summary's ETag. */
  version: count("version"),
  /** Bumped with every change of the workspace-wide activity rows (brand_id ''). */
  activityVersion: count("activity_version"),
});

/** Per brand: what lists, topics and campaigns a brand holds. */
export const reportBrandCounters = pgTable(
  "report_brand_counters",
  {
    brandId: id("brand_id")
      .primaryKey()
      .references(() => brands.id, { onDelete: "cascade" }),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    listsTotal: count("lists_total"),
    listMemberships: count("list_memberships"),
    /** Archived topics are not counted, as GET /v1/topics does not list them. */
    topicsTotal: count("topics_total"),
    campaignsTotal: count("campaigns_total"),
    campaignsDraft: count("campaigns_draft"),
    campaignsScheduled: count("campaigns_scheduled"),
    campaignsSending: count("campaigns_sending"),
    campaignsPaused: count("campaigns_paused"),
    campaignsSent: count("campaigns_sent"),
    campaignsCancelled: count("campaigns_cancelled"),
    /** Summary figures above changed. */
    version: count("version"),
    /** A campaign report row of this brand changed (counters, name, subject, send time). */
    campaignsVersion: count("campaigns_version"),
    /** This brand's activity rows changed. */
    activityVersion: count("activity_version"),
  },
  // Workspace-wide answers sum over a workspace's brands.
  (t) => [index("report_brand_counters_workspace_idx").on(t.workspaceId)],
);

/** Per campaign: the campaign report row's figures, also read by `campaign:show` and campaign.sent. */
export const reportCampaignCounters = pgTable("report_campaign_counters", {
  campaignId: id("campaign_id")
    .primaryKey()
    .references(() => campaigns.id, { onDelete: "cascade" }),
  workspaceId: id("workspace_id").notNull(),
  brandId: id("brand_id").notNull(),
  recipients: count("recipients"),
  queued: count("queued"),
  accepted: count("accepted"),
  /** Failed other than for a missing merge tag. */
  failed: count("failed"),
  /** Failed for a missing merge tag. */
  skipped: count("skipped"),
  cancelled: count("cancelled"),
  delivered: count("delivered"),
  bounced: count("bounced"),
  complained: count("complained"),
  opened: count("opened"),
  clicked: count("clicked"),
  unsubscribed: count("unsubscribed"),
});

/**
 * Activity series rollups at three grains: `d` (UTC day), `m` (minute) and `x` (the exact
 * millisecond). A window takes whole days from `d`, the whole minutes at its ragged ends from `m`
 * and the last partial minutes from `x`, so a query reads at most a few thousand rows whatever
 * the volume. `brand_id` is '' for workspace-wide counts (contacts added, opt-outs of everything).
 */
export const reportActivity = pgTable(
  "report_activity",
  {
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    grain: text("grain", { enum: ["d", "m", "x"] }).notNull(),
    bucketAt: at("bucket_at").notNull(),
    brandId: id("brand_id").notNull(),
    contactsAdded: count("contacts_added"),
    unsubscribes: count("unsubscribes"),
    campaignsSent: count("campaigns_sent"),
    opens: count("opens"),
    clicks: count("clicks"),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.grain, t.bucketAt, t.brandId] })],
);

/** First deliveries, opens and clicks of sends, waiting to be folded into the counters. */
export const reportEngagementQueue = pgTable(
  "report_engagement_queue",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspaceId: id("workspace_id").notNull(),
    campaignId: id("campaign_id").notNull(),
    kind: text("kind", { enum: ["delivered", "opened", "clicked"] }).notNull(),
    occurredAt: at("occurred_at").notNull(),
  },
  // campaign:show and campaign.sent fold one campaign's pending rows before reading.
  (t) => [index("report_engagement_queue_campaign_idx").on(t.campaignId)],
);

/**
 * New contacts waiting to be counted into the workspace's status buckets and its contacts_added
 * series: the contact insert trigger appends here instead of updating the workspace's one counter
 * row, which every writer of the workspace would otherwise wait for until commit. Every reader of
 * those figures folds the workspace's rows first (report_fold_contact_counts), so they are exact
 * at the next request.
 */
export const reportContactCountQueue = pgTable(
  "report_contact_count_queue",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspaceId: id("workspace_id").notNull(),
    createdAt: at("created_at").notNull(),
    added: count("added"),
    total: count("total"),
    unsubscribed: count("unsubscribed"),
    bounced: count("bounced"),
    complained: count("complained"),
  },
  (t) => [index("report_contact_count_queue_workspace_idx").on(t.workspaceId)],
);

/** Each contact's derived status as last computed, so a change moves exactly one count. */
export const reportContactStatuses = pgTable(
  "report_contact_statuses",
  {
    contactId: id("contact_id").primaryKey(),
    workspaceId: id("workspace_id").notNull(),
    status: text("status").notNull(),
  },
  // The rebuild of one workspace's figures starts by clearing its rows (the index's prefix), and the
  // dashboard's contacts sorted by status (sort=status, status_desc) walk it as keyset pages on
  // (status, contact_id). It replaces an index on workspace_id alone, so the writes keep one index.
  (t) => [index("report_contact_statuses_workspace_status_idx").on(t.workspaceId, t.status, t.contactId)],
);
