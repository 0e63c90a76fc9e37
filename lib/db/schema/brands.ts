import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import type { CheckedRecord, ExpectedRecord } from "@/lib/domains/domain-records";

import type { DmarcLookup } from "../../domains/dmarc-policy";
import { at, createdAt, id, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export const BRAND_REVIEW_STATUSES = ["pending", "approved", "rejected"] as const;

export const brands = pgTable(
  "brands",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    legalName: text("legal_name").notNull(),
    postalAddress: text("postal_address").notNull(),
    websiteUrl: text("website_url").notNull(),
    senderEmail: text("sender_email").notNull(),
    replyTo: text("reply_to"),
    logoUrl: text("logo_url"),
    primaryColor: text("primary_color"),
    domainId: id("domain_id"),
    /** Editing name, legal name, sender or postal address puts the brand back to `pending` and pauses its sending. */
    reviewStatus: text("review_status", { enum: BRAND_REVIEW_STATUSES }).notNull().default("pending"),
    reviewedAt: at("reviewed_at"),
    /** The reviewer's words on the last decision, mailed to the owners. */
    reviewNote: text("review_note"),
    /** The operator who took the last decision (their user id). */
    reviewedBy: text("reviewed_by"),
    /** The last decision was taken by an operator who is a member of the workspace, allowed only where no other operator could take it. */
    selfReviewed: boolean("self_reviewed").notNull().default(false),
    /** Set by an identity edit, cleared when its review ends: until then the brand's campaigns send nothing. */
    sendingHeldAt: at("sending_held_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("brands_workspace_idx").on(t.workspaceId, t.id)],
);

export const CARRIER_STATUSES = ["not_registered", "pending", "registered", "failed"] as const;

/**
 * pending: its required DNS records are not all published yet · verified: they are, and registration
 * with the carrier is under way · ready: verified and registered, mail can be signed and sent from it
 * · registration_failed: verified, but the carrier refused it (carrier_error says why; re-sync
 * repeats it) · records_missing: it was verified, and a later check found a required record gone.
 */
export const DOMAIN_STATES = ["pending", "verified", "ready", "registration_failed", "records_missing"] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** A sending domain: DNS-verified and, separately, registered with the mail carrier. */
export const sendingDomains = pgTable(
  "sending_domains",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    hostname: text("hostname").notNull(),
    dkimSelector: text("dkim_selector").notNull(),
    dkimPublicKey: text("dkim_public_key").notNull(),
    dkimPrivateKey: text("dkim_private_key").notNull(),
    dnsVerifiedAt: at("dns_verified_at"),
    carrierStatus: text("carrier_status", { enum: CARRIER_STATUSES }).notNull().default("not_registered"),
    carrierError: text("carrier_error"),
    state: text("state", { enum: DOMAIN_STATES }).notNull().default("pending"),
    /** The carrier it was registered with (MAIL_TRANSPORT at the time): smtp, resend or local. */
    carrier: text("carrier"),
    /** The carrier's id for the domain (Resend's). */
    carrierDomainId: text("carrier_domain_id"),
    /** Records the carrier asks for (Resend's), published beside ours. */
    carrierRecords: jsonb("carrier_records").$type<ExpectedRecord[]>().notNull().default([]),
    /** Every record as the last check found it. */
    records: jsonb("records").$type<CheckedRecord[]>().notNull().default([]),
    /** The DMARC record the last check found for the hostname (its own, else its organizational domain's); null before a check read it. */
    dmarcLookup: jsonb("dmarc_lookup").$type<DmarcLookup>(),
    lastCheckedAt: at("last_checked_at"),
    /**
     * Whether its daily sending follows the warm-up schedule (docs/readings.md, "Warm-up of a sending
     * domain"). Domains added since warm-up exists start with it on; older ones are taken as warmed.
     */
    warmUp: boolean("warm_up").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sending_domains_workspace_hostname_key").on(t.workspaceId, t.hostname)],
);

/** Addresses a workspace proved it owns; before approval these are the only recipients it can mail. */
export const verifiedAddresses = pgTable(
  "verified_addresses",
  {
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    verifiedAt: at("verified_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("verified_addresses_key").on(t.workspaceId, t.email)],
);
