import { integer, pgTable, primaryKey, real, text } from "drizzle-orm/pg-core";

import { at, id, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/**
 * What a domain's MX records say about its mailbox provider (lib/deliverability/mailbox-provider.ts):
 * public facts, shared by every workspace, looked up again after their TTL.
 */
export const mailboxDomains = pgTable("mailbox_domains", {
  domain: text("domain").primaryKey(),
  provider: text("provider").notNull(),
  /** `mx` (from the domain's MX hosts), `list` (a known consumer domain) or `none` (no answer: `other`). */
  source: text("source").notNull(),
  checkedAt: at("checked_at").notNull(),
});

/**
 * One workspace's pace at one mailbox provider (lib/campaigns/provider-pacing.ts): the rate it chose,
 * if any, and the state the pacing keeps: a token bucket spent by claims, and the slowdown that
 * temporary refusals bring and time lifts.
 */
export const providerPaces = pgTable(
  "provider_paces",
  {
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** Sends per minute chosen by the workspace; null keeps the default. */
    ratePerMinute: integer("rate_per_minute"),
    /** Sends the provider may still take now; refilled at the (slowed) rate up to a minute's worth. */
    tokens: real("tokens"),
    refilledAt: at("refilled_at"),
    /** The share of the rate left by the last refusal (1 = full rate); it doubles back every RECOVERY_MINUTES. */
    slowdown: real("slowdown").notNull().default(1),
    refusedAt: at("refused_at"),
    /** Temporary refusals ever met, for the settings card. */
    refusals: integer("refusals").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.provider] })],
);
