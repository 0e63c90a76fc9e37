import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import { at, createdAt, id, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export const SUBSCRIPTION_STATES = ["pending", "subscribed", "unsubscribed"] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
export const SUBSCRIPTION_SOURCES = ["double_opt_in", "api", "import", "dashboard"] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

/**
 * Where a subscription came from, beyond its `source`: the signup form, the
 * API key, or the import (file, row, and the member who asserted consent).
 * Snake_case, as the access-request export shows it; the names are kept as
 * they were then, so a form or key renamed later does not rewrite the evidence.
 */
export type SubscriptionOrigin =
  | { kind: "signup_form"; form_id: string; form_name: string }
  | { kind: "api_key"; key_id: string; key_name: string | null }
  /** A member subscribed the contact in the dashboard, stating the sender holds consent. */
  | { kind: "member"; user_id: string; member: string | null }
  | {
      kind: "import";
      import_id: string;
      file_name: string;
      row: number;
      /** The member who stated the sender holds consent; null when the admin CLI imported. */
      asserted_by_user_id: string | null;
      asserted_by: string | null;
      asserted_at: string | null;
    };

/** One contact's consent to one topic, with the evidence of it. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: id("id").primaryKey(),
    // No foreign keys, as on sends: PostgreSQL checks each row by row (about 15 µs a key, measured
    // on an import: with the contact's and the topic's, half of writing a subscription). Nothing
    // deletes a contact or a topic (topics are archived), and a deleted workspace's subscriptions
    // go before its contacts (deleteNextChunk). A feature that deletes either must delete these.
    workspaceId: id("workspace_id").notNull(),
    contactId: id("contact_id").notNull(),
    topicId: id("topic_id").notNull(),
    state: text("state", { enum: SUBSCRIPTION_STATES }).notNull(),
    /** How the subscription became `subscribed`. */
    source: text("source", { enum: SUBSCRIPTION_SOURCES }),
    /** Which form, key or import row it came from; null on subscriptions made before this was kept. */
    origin: jsonb("origin").$type<SubscriptionOrigin>(),
    confirmationSentAt: at("confirmation_sent_at"),
    /** When the "you're subscribed" mail went out: it goes once per subscription, and a retried step must not send it again. */
    welcomeSentAt: at("welcome_sent_at"),
    confirmedAt: at("confirmed_at"),
    confirmedIp: text("confirmed_ip"),
    confirmedUserAgent: text("confirmed_user_agent"),
    subscribedAt: at("subscribed_at"),
    unsubscribedAt: at("unsubscribed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("subscriptions_contact_topic_key").on(t.contactId, t.topicId),
    // Topic subscribers (audience snapshot, subscriber_count, the topic_id filter on contacts).
    index("subscriptions_topic_state_idx").on(t.topicId, t.state, t.contactId),
    // Readers walk the topic index one state at a time (the contact export): a state they do not know would be missed.
    check(
      "subscriptions_state_known",
      sql`${t.state} in (${sql.raw(SUBSCRIPTION_STATES.map((state) => `'${state}'`).join(", "))})`,
    ),
  ],
);

/**
 * A double opt-in mail that was asked for. Recorded with the pending
 * subscription; the confirmation workflow mails it (or not, when the
 * de-duplication window says so) and stamps `mailedAt` / `skippedReason`.
 */
export const confirmationRequests = pgTable(
  "confirmation_requests",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    subscriptionId: id("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    requestedAt: at("requested_at").notNull(),
    mailedAt: at("mailed_at"),
    skippedReason: text("skipped_reason"),
  },
  (t) => [
    // The de-duplication windows look back by address.
    index("confirmation_requests_email_idx").on(t.workspaceId, t.email, t.requestedAt),
    // decideConfirmation's cross-workspace cap: mails to one address in the last 24 hours, any workspace.
    index("confirmation_requests_email_mailed_idx").on(t.email, t.mailedAt),
  ],
);
