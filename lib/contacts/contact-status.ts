import { sql, type SQL } from "drizzle-orm";

export const CONTACT_STATUSES = ["subscribed", "unsubscribed", "bounced", "complained"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * How the dashboard words and colours each status, the badge and the status filter alike: the
 * words a sender reads on a row are the ones they pick in the filter. `tone` is a Badge variant.
 */
export const CONTACT_STATUS_LABELS: Record<
  ContactStatus,
  { label: string; tone: "success" | "secondary" | "warning" | "destructive" }
> = {
  subscribed: { label: "Subscribed", tone: "success" },
  unsubscribed: { label: "Unsubscribed", tone: "secondary" },
  bounced: { label: "Bounced", tone: "warning" },
  complained: { label: "Complained", tone: "destructive" },
};

/**
 * The `unsubscribed` rule of docs/readings.md ("Contact status") on its own,
 * independent of suppressions: the contact opted out of everything, or opted
 * out of a topic and holds no confirmed subscription. Consent checks use this,
 * not the status, because the status puts complained and bounced first and
 * would hide an opt-out behind a suppression.
 */
export const CONTACT_OPTED_OUT_SQL = `("contacts"."opted_out_at" is not null
  or (exists (select 1 from subscriptions su where su.contact_id = "contacts"."id" and su.state = 'unsubscribed')
   and not exists (select 1 from subscriptions ss where ss.contact_id = "contacts"."id" and ss.state = 'subscribed')))`;

/**
 * A contact's status, derived by the database view `derived_contact_statuses`
 * (lib/db/sql/derived-contact-statuses.sql), the rule's one home: complained
 * under a complaint suppression of the address; bounced under a bounce or
 * soft-bounce one; unsubscribed under any other suppression of the address or
 * of its domain, or when opted out (above); else subscribed, which so means
 * currently emailable (docs/readings.md, "Contact status"). The report
 * triggers keep each contact's status in report_contact_statuses in the same
 * transaction as any change, so reads take the kept value: one key look-up
 * per row instead of four.
 */
export const CONTACT_STATUS_SQL = `(select r.status from report_contact_statuses r where r.contact_id = "contacts"."id")`;

/** The rule itself, for checking the kept statuses. */
export const DERIVED_CONTACT_STATUS_SQL = `(select v.status from derived_contact_statuses v where v.contact_id = "contacts"."id")`;

export function contactStatusSql(): SQL<ContactStatus> {
  return sql<ContactStatus>`${sql.raw(CONTACT_STATUS_SQL)}`;
}
