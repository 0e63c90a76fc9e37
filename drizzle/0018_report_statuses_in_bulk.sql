-- A new contact's status without report_refresh_contacts: it has no subscriptions and no status row
-- yet, so its status follows from its address and opt-out alone (the rule of CONTACT_STATUS_SQL
-- with no subscriptions), and there is no earlier bucket to lock, read or take it out of. An
-- import of a million contacts pays one insert per contact instead of a full refresh, and the
-- activity series one row per distinct instant (an import chunk shares one) instead of three per contact.
-- ON CONFLICT keeps the rare statement that inserts a contact and its subscriptions together
-- correct: whichever trigger runs first writes and counts the status, the other one leaves it.
CREATE OR REPLACE FUNCTION report_contacts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH saved AS (
    INSERT INTO report_contact_statuses (contact_id, workspace_id, status)
    SELECT n.id, n.workspace_id, CASE
      WHEN EXISTS (SELECT 1 FROM suppressions sc WHERE sc.workspace_id = n.workspace_id AND sc.email = n.email AND sc.reason = 'complaint') THEN 'complained'
      WHEN EXISTS (SELECT 1 FROM suppressions sb WHERE sb.workspace_id = n.workspace_id AND sb.email = n.email AND sb.reason = 'bounce') THEN 'bounced'
      WHEN n.opted_out_at IS NOT NULL THEN 'unsubscribed'
      ELSE 'subscribed' END
    FROM new_rows n
    ON CONFLICT (contact_id) DO NOTHING
    RETURNING workspace_id, status
  ), delta AS (
    SELECT workspace_id AS ws, count(*) AS total,
      count(*) FILTER (WHERE status = 'unsubscribed') AS unsubscribed,
      count(*) FILTER (WHERE status = 'bounced') AS bounced,
      count(*) FILTER (WHERE status = 'complained') AS complained
    FROM saved GROUP BY workspace_id
  )
  UPDATE report_workspace_counters w SET
    contacts_total = w.contacts_total + d.total,
    contacts_unsubscribed = w.contacts_unsubscribed + d.unsubscribed,
    contacts_bounced = w.contacts_bounced + d.bounced,
    contacts_complained = w.contacts_complained + d.complained,
    version = w.version + 1
  FROM delta d WHERE w.workspace_id = d.ws;
  INSERT INTO report_activity (workspace_id, grain, bucket_at, brand_id, contacts_added)
  SELECT n.workspace_id, g.grain, g.bucket_at, '', sum(n.added)
  FROM (SELECT workspace_id, created_at, count(*) AS added FROM new_rows GROUP BY 1, 2) n CROSS JOIN LATERAL report_grains(n.created_at) g GROUP BY 1, 2, 3
  ON CONFLICT (workspace_id, grain, bucket_at, brand_id) DO UPDATE SET contacts_added = report_activity.contacts_added + excluded.contacts_added;
  UPDATE report_workspace_counters SET activity_version = activity_version + 1 WHERE workspace_id IN (SELECT workspace_id FROM new_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A new confirmed subscription can only move a contact from unsubscribed to subscribed. So a
-- contact whose status is already subscribed, in a status row this very transaction wrote (and so
-- holds locked until it commits: no concurrent refresh can interleave), needs no refresh: an
-- import's new contacts, subscribed right after they are created, skip the second recount. A row
-- written under a savepoint carries the subtransaction's id and is simply refreshed as before.
CREATE OR REPLACE FUNCTION report_subscriptions_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM report_refresh_contacts(array(
      SELECT DISTINCT n.contact_id FROM new_rows n
      WHERE n.state <> 'pending'
        AND NOT (n.state = 'subscribed' AND EXISTS (
          SELECT 1 FROM report_contact_statuses s
          WHERE s.contact_id = n.contact_id AND s.status = 'subscribed' AND s.xmin = pg_current_xact_id()::xid))));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM report_refresh_contacts(array(SELECT DISTINCT n.contact_id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.state <> o.state OR n.contact_id <> o.contact_id
                                          UNION SELECT o.contact_id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.contact_id <> o.contact_id));
  ELSE
    PERFORM report_refresh_contacts(array(SELECT DISTINCT contact_id FROM old_rows WHERE state <> 'pending'));
  END IF;
  RETURN NULL;
END $$;
