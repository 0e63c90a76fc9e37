import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

import {
  AUTOMATION_TRIGGERS,
  EXIT_REASONS,
  type AutomationCondition,
  type AutomationStep,
  type TriggerSettings,
} from "../../automations/automation-schemas";
import { at, createdAt, id, updatedAt } from "./columns";
import { contacts } from "./contacts";
import { topics } from "./topics";
import { workspaces } from "./workspaces";

/**
 * A series of mails each person walks on their own clock (lib/automations/, docs/readings.md
 * "Automations"). It belongs to one topic, and so to that topic's brand: it mails only the topic's
 * subscribers, with the topic's unsubscribe link.
 */
export const automations = pgTable(
  "automations",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    topicId: id("topic_id")
      .notNull()
      .references(() => topics.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status", { enum: ["draft", "active", "paused"] })
      .notNull()
      .default("draft"),
    trigger: text("trigger", { enum: AUTOMATION_TRIGGERS }).notNull(),
    /** The trigger's settings, checked by its schema (triggerSettingsSchemas): a list, an attribute, an event name… */
    triggerSettings: jsonb("trigger_settings").$type<TriggerSettings>().notNull().default({}),
    /** Minutes after an entry ended before the person may enter again; null: they never do. */
    reentryAfterMinutes: integer("reentry_after_minutes"),
    /** When it holds at a step, the person's run ends (exit reason `exit_condition`). */
    exitCondition: jsonb("exit_condition").$type<AutomationCondition>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("automations_workspace_idx").on(t.workspaceId, t.id),
    // Entry: the active automations a topic's event starts.
    index("automations_topic_idx")
      .on(t.topicId, t.trigger)
      .where(sql`${t.status} = 'active'`),
  ],
);

/** The steps of an automation as they were set; a new set of steps is a new version, the newest the one people enter. */
export const automationVersions = pgTable(
  "automation_versions",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    automationId: id("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    steps: jsonb("steps").$type<AutomationStep[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("automation_versions_number_key").on(t.automationId, t.number)],
);

/**
 * One person's way through an automation: the version they entered, where they are (the step they
 * wait at or do next) and how it ended. Erasing the contact keeps the row without them (figures stay).
 */
export const automationEntries = pgTable(
  "automation_entries",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    automationId: id("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    versionId: id("version_id")
      .notNull()
      .references(() => automationVersions.id, { onDelete: "cascade" }),
    contactId: id("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    status: text("status", { enum: ["active", "completed", "exited"] })
      .notNull()
      .default("active"),
    exitReason: text("exit_reason", { enum: EXIT_REASONS }),
    stepIndex: integer("step_index").notNull().default(0),
    enteredAt: at("entered_at").notNull(),
    endedAt: at("ended_at"),
  },
  (t) => [
    // One active entry per automation and person; whether an ended entry lets them in again is the
    // automation's re-entry rule (lib/automations/reentry.ts), which reads their last entry here.
    uniqueIndex("automation_entries_active_key")
      .on(t.automationId, t.contactId)
      .where(sql`${t.status} = 'active'`),
    index("automation_entries_figures_idx").on(t.automationId, t.status, t.stepIndex),
    // Erasing or deleting a contact sets its entries' contact to null: found by this, not a scan.
    // Also a contact's position in every automation (contactAutomations) and their last entry (re-entry).
    index("automation_entries_contact_idx").on(t.contactId, t.automationId),
    check("automation_entries_exit_reason", sql`(${t.status} = 'exited') = (${t.exitReason} is not null)`),
  ],
);

/**
 * The arm a branch step sent an entry down (`yes` or `no`), once per entry and step: the figures
 * count them, and a retried branch step finds its row and does not decide again.
 */
export const automationBranchArms = pgTable(
  "automation_branch_arms",
  {
    entryId: id("entry_id")
      .notNull()
      .references(() => automationEntries.id, { onDelete: "cascade" }),
    automationId: id("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    stepIndex: integer("step_index").notNull(),
    arm: text("arm", { enum: ["yes", "no"] }).notNull(),
    decidedAt: at("decided_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.entryId, t.stepIndex] }),
    index("automation_branch_arms_figures_idx").on(t.automationId, t.stepIndex),
  ],
);

/**
 * Each send step an entry reached, once: the mail handed over, or skipped with why (a merge tag without
 * a value). A retried step finds its row and mails nothing.
 */
export const automationSends = pgTable(
  "automation_sends",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    automationId: id("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    entryId: id("entry_id")
      .notNull()
      .references(() => automationEntries.id, { onDelete: "cascade" }),
    stepIndex: integer("step_index").notNull(),
    /**
     * `sending`: committed before the mail is handed over, so that a retry after a kill knows it may have
     * left (lib/automations/run-send.ts); then `sent`, or `skipped` when it was never handed over.
     */
    status: text("status", { enum: ["sending", "sent", "skipped"] }).notNull(),
    /** Why a mail was skipped: `missing_merge_tag:<tag>`. */
    reason: text("reason"),
    sentAt: at("sent_at").notNull(),
    /** Tracking, as a campaign send's (lib/tracking/record-engagement.ts): the pixel whoever loaded it, and a person's open or click. */
    openedAt: at("opened_at"),
    humanOpenedAt: at("human_opened_at"),
    clickedAt: at("clicked_at"),
    /** A branch's `clicked` condition reads only a person's click, not a scanner's. */
    humanClickedAt: at("human_clicked_at"),
    /** The provider's id for the mail (Resend's), by which its reports find this row; the return path and Message-ID carry the row's id. */
    providerMessageId: text("provider_message_id"),
    /** A provider's reports, each recorded once (lib/automations/automation-mail-events.ts). */
    deliveredAt: at("delivered_at"),
    bouncedAt: at("bounced_at"),
    bounceType: text("bounce_type", { enum: ["permanent", "transient", "undetermined"] }),
    complainedAt: at("complained_at"),
  },
  (t) => [
    uniqueIndex("automation_sends_step_key").on(t.entryId, t.stepIndex),
    index("automation_sends_figures_idx").on(t.automationId, t.stepIndex),
    index("automation_sends_provider_message_idx")
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
  ],
);
