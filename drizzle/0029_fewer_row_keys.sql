ALTER TABLE "contacts" DROP CONSTRAINT "contacts_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_contact_id_contacts_id_fk";
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_topic_id_topics_id_fk";
--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "import_rows" DROP CONSTRAINT "import_rows_import_id_imports_id_fk";
--> statement-breakpoint
-- As in 0018, with the "status already written subscribed by this transaction" test as a scalar
-- sub-select: as an EXISTS PostgreSQL hashed it, reading every status of every workspace once per
-- statement (80 ms per import chunk at 900,000 contacts), where each subscription needs one key.
CREATE OR REPLACE FUNCTION report_subscriptions_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM report_refresh_contacts(array(
      SELECT DISTINCT n.contact_id FROM new_rows n
      WHERE n.state <> 'pending'
        AND NOT (n.state = 'subscribed' AND coalesce((
          SELECT s.status = 'subscribed' AND s.xmin = pg_current_xact_id()::xid
          FROM report_contact_statuses s WHERE s.contact_id = n.contact_id), false))));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM report_refresh_contacts(array(SELECT DISTINCT n.contact_id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.state <> o.state OR n.contact_id <> o.contact_id
                                          UNION SELECT o.contact_id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.contact_id <> o.contact_id));
  ELSE
    PERFORM report_refresh_contacts(array(SELECT DISTINCT contact_id FROM old_rows WHERE state <> 'pending'));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- As in 0019, with each new contact's status looked up by its key. A plpgsql statement keeps the
-- plan of its first run for the session. When that run was an import's first chunk (5,000 rows,
-- 10,000 contacts) the plan hash-joined a seq scan of every contact and hashed every subscription:
-- the import's later chunks read them all (118 + 98 ms per chunk at 900,000 contacts), and so did
-- each single-row insert on that connection (91 ms instead of 0.7 ms, measured). The sub-select
-- per new row (OFFSET 0 keeps the planner from flattening it) is planned for one contact whatever
-- the first run was: an index look-up each time.
CREATE OR REPLACE FUNCTION report_contacts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH saved AS (
    INSERT INTO report_contact_statuses (contact_id, workspace_id, status)
    SELECT d.contact_id, d.workspace_id, d.status FROM new_rows n
    CROSS JOIN LATERAL (SELECT * FROM derived_contact_statuses d WHERE d.contact_id = n.id OFFSET 0) d
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

