import { sql } from "drizzle-orm";
import { index, pgTable, smallint, text } from "drizzle-orm/pg-core";

import { at, createdAt, id, updatedAt } from "./columns";

/** queued → sending → accepted; or failed (never left the service) / cancelled (never sent). */
export const SEND_STATES = ["queued", "sending", "accepted", "failed", "cancelled"] as const;
export type SendState = (typeof SEND_STATES)[number];
export const BOUNCE_TYPES = ["permanent", "transient", "undetermined"] as const;

/**
 * One recipient of one campaign. `id` is the send_id, also the provider idempotency key.
 *
 * The primary key is the only index every send pays for: the audience snapshot writes up to a million
 * rows at once, and each index cost about 1.5 s per million on top of the 3.3 s of the rows themselves
 * (measured on PostgreSQL 18). The sends of one campaign are one range of that key instead, since their
 * ids all start with the campaign's `send_id_prefix` (see send-id-range.ts): dispatch walks the range
 * with a cursor and cancel updates it. A recipient appears once per campaign because the snapshot is
 * taken once, from a query that yields each contact once.
 */
export const sends = pgTable(
  "sends",
  {
    id: id("id").primaryKey(),
    // No foreign keys: the audience snapshot writes a million rows in one statement and each key is
    // checked per row (measured: the campaign's alone added 1.7 s per 300,000; workspace and contact
    // keys had doubled it before). Sends are only made by the snapshot, with their campaign locked,
    // and a send outlives a deleted contact (campaign figures must not change afterwards).
    workspaceId: id("workspace_id").notNull(),
    campaignId: id("campaign_id").notNull(),
    contactId: id("contact_id").notNull(),
    email: text("email").notNull(),
    state: text("state", { enum: SEND_STATES }).notNull().default("queued"),
    /** The dispatch run that moved it to `sending`: after a crash that run (and no other) sends it again. */
    claimedBy: text("claimed_by"),
    failureReason: text("failure_reason"),
    /**
     * The recipient's mailbox provider (lib/deliverability/mailbox-provider.ts), set by the snapshot so that
     * a batch can take each provider's share without looking anything up. Null on sends made before it existed: `other`.
     */
    provider: text("provider"),
    /**
     * For a campaign sent at a local time: the instant the recipient's slice is due (their zone's HH:MM on
     * the day), set by the snapshot; null otherwise. The snapshot also sets `not_before` to it, so that a
     * batch claims only sends that are due; this column keeps the slice when a deferral moves `not_before`.
     */
    dueAt: at("due_at"),
    /** A send put back after a temporary refusal is not claimed before this (lib/campaigns/defer-sends.ts). */
    notBefore: at("not_before"),
    /** Temporary refusals so far: each waits longer, and past the last the send fails. */
    deferrals: smallint("deferrals").notNull().default(0),
    providerMessageId: text("provider_message_id"),
    acceptedAt: at("accepted_at"),
    deliveredAt: at("delivered_at"),
    bouncedAt: at("bounced_at"),
    bounceType: text("bounce_type", { enum: BOUNCE_TYPES }),
    complainedAt: at("complained_at"),
    openedAt: at("opened_at"),
    /**
     * The first open or click the person made, not a machine (lib/tracking/machine-engagement.ts): a click is
     * taken as an open too. `opened_at` counts the pixel whoever loaded it; this is who read the mail, the
     * measure "Resend to non-openers" leaves out (docs/readings.md, "Resending to non-openers").
     */
    humanOpenedAt: at("human_opened_at"),
    clickedAt: at("clicked_at"),
    unsubscribedAt: at("unsubscribed_at"),
    /**
     * The A/B test variant this send carries (lib/campaigns/ab-test-dispatch.ts): given at random to the
     * test share, the winner's to the rest once chosen. Null while a send waits for the winner, or without a test.
     */
    abVariant: smallint("ab_variant"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The sender's view lists the recipients who were skipped; queued sends are not in this index, so
    // the snapshot does not pay for it.
    index("sends_campaign_failed_idx")
      .on(t.campaignId)
      .where(sql`${t.state} = 'failed'`),
    // Provider webhooks find a send by the provider's message id; queued sends have none yet.
    index("sends_provider_message_idx")
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
  ],
);
