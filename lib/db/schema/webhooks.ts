import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, id, updatedAt } from "./columns";
import { events } from "./events";
import { workspaces } from "./workspaces";

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Empty means every event type. */
    eventTypes: text("event_types").array().notNull().default([]),
    /** Needed in clear to sign each delivery; shown to the sender once. */
    signingSecret: text("signing_secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabledAt: at("disabled_at"),
    disabledReason: text("disabled_reason"),
    /** First failed attempt since the last success; failing for 5 days disables the endpoint. */
    failingSince: at("failing_since"),
    secretRotatedAt: at("secret_rotated_at"),
    /**
     * Bumped by the endpoint's delivery run each time it starts to look for due
     * deliveries. A transaction queueing deliveries reads it under a share lock
     * and names the run it asks for after it: the same value means a run that
     * has not looked yet, so it will see them (see request-delivery.ts).
     */
    deliveryWake: integer("delivery_wake").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_workspace_idx").on(t.workspaceId)],
);

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

/** One event to one endpoint, retried on the schedule until it succeeds or gives up. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    endpointId: id("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: id("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: at("next_attempt_at"),
    /** Set while a delivery run is posting it; a run that died leaves it due again once this has passed. */
    claimedUntil: at("claimed_until"),
    /**
     * Bumped by a secret rotation, which makes every delivery still being
     * retried due at once. A failed attempt that was in flight meanwhile, signed
     * with the old secret, is recorded but does not push the retry back.
     */
    generation: integer("generation").notNull().default(0),
    /** Deliveries with the same key (endpoint + contact, or campaign) are posted one at a time, in event order. */
    orderKey: text("order_key").notNull(),
    lastAttemptAt: at("last_attempt_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event_key").on(t.endpointId, t.eventId),
    // An endpoint's delivery run claims its due deliveries, oldest due first.
    index("webhook_deliveries_endpoint_due_idx")
      .on(t.endpointId, t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    // The deliveries a run is posting (or left claimed when it died): few, found without reading the rest.
    index("webhook_deliveries_claimed_idx")
      .on(t.endpointId, t.claimedUntil)
      .where(sql`${t.claimedUntil} is not null`),
  ],
);

/** Every attempt, with what the receiver answered, for the dashboard and the CLI. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: id("id").primaryKey(),
    deliveryId: id("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: at("attempted_at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms"),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId)],
);
