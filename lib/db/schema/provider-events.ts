import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import { at, id } from "./columns";
import { workspaces } from "./workspaces";

export const MAIL_PROVIDERS = ["resend", "smtp", "local"] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];

/**
 * received: stored, waiting for apply-provider-event · applied · ignored: nothing of ours to apply
 * (an event type we track ourselves, mail that is not ours) · failed: every attempt failed, for an
 * operator to look at · unrecognized: a message in the bounce mailbox that is neither a delivery
 * status notification nor a complaint report, kept aside rather than guessed at.
 */
export const PROVIDER_EVENT_STATES = ["received", "applied", "ignored", "failed", "unrecognized"] as const;
export type ProviderEventState = (typeof PROVIDER_EVENT_STATES)[number];

/** What a provider reported, in our terms, as stored (JSON: the date is a string). */
export interface StoredProviderEvent {
  type: "delivered" | "bounced" | "complained";
  bounceType?: "permanent" | "transient" | "undetermined";
  sendId?: string;
  providerMessageId?: string;
  /** The provider's wording, for people: never parsed. */
  reason?: string;
  /** An enhanced status code (RFC 3463) when the provider gave one, e.g. 5.1.1. */
  statusCode?: string;
  complaintType?: string;
  occurredAt: string;
  /** Mail that is not a campaign send (the local mailbox's other messages): applied by address. */
  address?: { workspaceId: string; email: string };
}

/**
 * Every report a mail provider sends, kept as it arrived before anything is
 * applied: a replay (same provider, same event id) is a no-op, a failure
 * while applying is retried from here, and the raw report is the evidence a
 * sender sees for a bounce or a complaint.
 */
export const providerEvents = pgTable(
  "provider_events",
  {
    id: id("id").primaryKey(),
    provider: text("provider", { enum: MAIL_PROVIDERS }).notNull(),
    providerEventId: text("provider_event_id").notNull(),
    /** The body (a webhook's JSON, a bounce message's bytes as text), capped by the receiver. */
    raw: text("raw").notNull(),
    event: jsonb("event").$type<StoredProviderEvent>(),
    /** Known once applied to a send or an address. */
    workspaceId: id("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    state: text("state", { enum: PROVIDER_EVENT_STATES }).notNull().default("received"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    receivedAt: at("received_at").notNull(),
    appliedAt: at("applied_at"),
  },
  (t) => [
    uniqueIndex("provider_events_provider_event_key").on(t.provider, t.providerEventId),
    index("provider_events_state_idx").on(t.state, t.receivedAt),
  ],
);
