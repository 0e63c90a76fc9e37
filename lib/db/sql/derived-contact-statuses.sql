-- The contact-status view as the migrated database holds it. Migrations still make every change
-- (drizzle/); a migration that changes this view must change this file too, and
-- lib/db/sql/definitions.test.ts fails until it does.
--
-- The contact-status rule in one place (docs/readings.md, "Contact status"): `subscribed` means
-- currently emailable. A complaint suppression of the address makes the contact complained; a
-- bounce or a soft-bounce (fifth transient) suppression, bounced; any other suppression of the
-- address (manual), a suppression of its domain, an opt-out of everything, or an opt-out of a topic
-- with no confirmed subscription left, unsubscribed. A view rather than a function so that
-- PostgreSQL plans it into each query set-wise (a non-inlinable function per row cost ~90 µs a
-- contact in an import); the report triggers and the rebuild (reports.sql) read it, so the four
-- buckets always add up to the total.
CREATE OR REPLACE VIEW derived_contact_statuses AS
SELECT c.id AS contact_id, c.workspace_id, CASE
    WHEN a.reason = 'complaint' THEN 'complained'
    WHEN a.reason IN ('bounce', 'soft_bounce') THEN 'bounced'
    WHEN a.reason IS NOT NULL OR c.opted_out_at IS NOT NULL THEN 'unsubscribed'
    WHEN EXISTS (SELECT 1 FROM suppressions d WHERE d.workspace_id = c.workspace_id AND d.domain = split_part(c.email, '@', 2)) THEN 'unsubscribed'
    WHEN EXISTS (SELECT 1 FROM subscriptions su WHERE su.contact_id = c.id AND su.state = 'unsubscribed')
     AND NOT EXISTS (SELECT 1 FROM subscriptions ss WHERE ss.contact_id = c.id AND ss.state = 'subscribed') THEN 'unsubscribed'
    ELSE 'subscribed' END AS status
FROM contacts c
LEFT JOIN suppressions a ON a.workspace_id = c.workspace_id AND a.email = c.email;
