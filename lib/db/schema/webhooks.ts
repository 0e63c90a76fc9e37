import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import { at, createdAt, id, updatedAt } from "./columns";
import { events } from "./events";
import { users } from "./users";
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
    /**
     * Who is posting the endpoint's deliveries, and until when: one holder at a time, renewed while it
     * posts, so one contact's deliveries go out in order even when a run is taken over. A lease on the
     * endpoint rather than a claim on each delivery: claiming wrote every delivery twice (claim, then
     * outcome), and the claims' index filled with dead entries faster than vacuum cleared them
     * (measured: the claim was two thirds of the database's time while draining 300,000 deliveries).
     */
    deliveryLeaseToken: text("delivery_lease_token"),
    deliveryLeaseUntil: at("delivery_lease_until"),
    /** The member who created it; null for the operator's CLI and endpoints made before this was recorded. */
    createdByUserId: id("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
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
    /** Deliveries with the same key (endpoint + contact, or campaign) are posted one at a time, in event order. */
    orderKey: text("order_key").notNull(),
    lastAttemptAt: at("last_attempt_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event_key").on(t.endpointId, t.eventId),
    // The endpoint's lease holder reads its due deliveries, oldest due first.
    index("webhook_deliveries_endpoint_due_idx")
      .on(t.endpointId, t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
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
