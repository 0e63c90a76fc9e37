import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";

import { at, createdAt, id } from "./columns";

/**
 * The event outbox: every state change the Events section names, written in
 * the same transaction as the change. Webhook delivery reads from here.
 * Test-key actions record nothing.
 */
export const events = pgTable(
  "events",
  {
    id: id("id").primaryKey(),
    // No foreign key to workspaces: see contacts.
    workspaceId: id("workspace_id").notNull(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    occurredAt: at("occurred_at").notNull(),
    /**
     * An open or click made by a machine, not the person: `apple_privacy_proxy`, `link_scanner` or `bot`
     * (lib/tracking/machine-engagement.ts). Kept out of `data`, which is the webhook payload the contract fixes.
     */
    machine: text("machine"),
    createdAt: createdAt(),
  },
  (t) => [
    index("events_workspace_idx").on(t.workspaceId, t.id),
    // Events about one contact: its timeline, its access request, and an erasure, which scrubs the
    // person from each of their events (a bulk erasure probes it once per person rather than reading
    // the workspace's events once per chunk). Compared with contact ids, whose collation is "C".
    index("events_workspace_contact_idx").on(t.workspaceId, sql`(${t.data}->>'contact_id') collate "C"`),
  ],
);
