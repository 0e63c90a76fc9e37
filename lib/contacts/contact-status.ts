import { sql, type SQL } from "drizzle-orm";

export const CONTACT_STATUSES = ["subscribed", "unsubscribed", "bounced", "complained"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * The `unsubscribed` rule of DECISIONS.md on its own, independent of
 * suppressions: the contact opted out of everything, or opted out of a topic
 * and holds no confirmed subscription. Consent checks use this, not the
 * status, because the status puts complained and bounced first and would hide
 * an opt-out behind a suppression.
 */
export const CONTACT_OPTED_OUT_SQL = `("contacts"."opted_out_at" is not null
  or (exists (select 1 from subscriptions su where su.contact_id = "contacts"."id" and su.state = 'unsubscribed')
   and not exists (select 1 from subscriptions ss where ss.contact_id = "contacts"."id" and ss.state = 'subscribed')))`;

/**
 * A contact's status, derived (never stored), as DECISIONS.md reads it:
 * complained if a complaint suppression covers the address; else bounced if a
 * permanent-bounce suppression does; else unsubscribed if opted out (above);
 * else subscribed. An expression over a row of "contacts", as SQL text so that
 * Drizzle queries and the raw hot-path queries share the one rule.
 * Outer columns are qualified on purpose: inside the subqueries a bare
 * "email" would bind to the subquery's own table.
 */
export const CONTACT_STATUS_SQL = `(case
  when exists (select 1 from suppressions sc where sc.workspace_id = "contacts"."workspace_id" and sc.email = "contacts"."email" and sc.reason = 'complaint') then 'complained'
  when exists (select 1 from suppressions sb where sb.workspace_id = "contacts"."workspace_id" and sb.email = "contacts"."email" and sb.reason = 'bounce') then 'bounced'
  when ${CONTACT_OPTED_OUT_SQL} then 'unsubscribed'
  else 'subscribed' end)`;

export function contactStatusSql(): SQL<ContactStatus> {
  return sql<ContactStatus>`${sql.raw(CONTACT_STATUS_SQL)}`;
}
