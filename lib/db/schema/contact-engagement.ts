import { integer, pgTable } from "drizzle-orm/pg-core";

import { at, id } from "./columns";

/**
 * What the sunset of inactive contacts reads (docs/readings.md, "Sunset of inactive contacts"): per
 * contact, the last open or click by a person, and the campaigns that reached them since. A row is
 * made when the first campaign is handed to the provider for them, so a contact without one has never
 * been sent a campaign and is never inactive.
 *
 * Kept apart from `contacts`, narrow and without any index but its key: it is written once per
 * dispatched batch and per human open or click, and read by the audience snapshot only while the
 * workspace's sunset is on, as one join on the contact id. Sends have no index by contact (see
 * sends.ts), so counting campaigns per contact from them at dispatch would read every send.
 */
export const contactEngagement = pgTable("contact_engagement", {
  contactId: id("contact_id").primaryKey(),
  // No foreign keys: see contacts. Erasure and workspace deletion remove the rows.
  workspaceId: id("workspace_id").notNull(),
  /** The last open or click not made by a machine (Apple's privacy proxy, a link scanner, a bot). */
  lastEngagedAt: at("last_engaged_at"),
  /** Campaigns handed to the provider for them since lastEngagedAt (or ever, without one). */
  campaignsSinceEngaged: integer("campaigns_since_engaged").notNull().default(0),
  /** When the first of those was handed over; null when there is none. */
  unengagedSince: at("unengaged_since"),
});
