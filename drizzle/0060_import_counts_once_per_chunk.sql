-- New contacts counted in (the workspace's status buckets, contacts_added in the activity series at
-- the instant they were created) by one function, the one home of that count: the contact insert
-- trigger calls it once per statement, and an import's chunk, which writes its new contacts' status
-- rows itself in the statement that creates them, calls it once with the chunk's totals, after its
-- other writes (the counter row is the one every writer of the workspace waits for).
-- p_counts: [{ workspace_id, created_at, added, total, unsubscribed, bounced, complained }], where
-- added counts new contacts and total the status rows written for them.
CREATE OR REPLACE FUNCTION report_count_new_contacts(p_counts jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(jsonb_array_length(p_counts), 0) = 0 THEN RETURN; END IF;
  INSERT INTO report_activity (workspace_id, grain, bucket_at, brand_id, contacts_added)
  SELECT c.workspace_id, g.grain, g.bucket_at, '', sum(c.added)
  FROM jsonb_to_recordset(p_counts) AS c(workspace_id text, created_at timestamptz, added bigint)
  CROSS JOIN LATERAL report_grains(c.created_at) g
  GROUP BY 1, 2, 3
  ON CONFLICT (workspace_id, grain, bucket_at, brand_id) DO UPDATE SET contacts_added = report_activity.contacts_added + excluded.contacts_added;
  UPDATE report_workspace_counters w SET
    contacts_total = w.contacts_total + d.total,
    contacts_unsubscribed = w.contacts_unsubscribed + d.unsubscribed,
    contacts_bounced = w.contacts_bounced + d.bounced,
    contacts_complained = w.contacts_complained + d.complained,
    version = w.version + CASE WHEN d.total > 0 THEN 1 ELSE 0 END,
    activity_version = w.activity_version + 1
  FROM (
    SELECT c.workspace_id, sum(c.total) AS total, sum(c.unsubscribed) AS unsubscribed, sum(c.bounced) AS bounced, sum(c.complained) AS complained
    FROM jsonb_to_recordset(p_counts) AS c(workspace_id text, total bigint, unsubscribed bigint, bounced bigint, complained bigint)
    GROUP BY 1
  ) d WHERE w.workspace_id = d.workspace_id;
END $$;
--> statement-breakpoint
-- As in 0029, counting through report_count_new_contacts; skipped while an import chunk's statement
-- that writes and counts its contacts itself runs (mail.counted_by_import, set for that statement only).
CREATE OR REPLACE FUNCTION report_contacts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE counts jsonb;
BEGIN
  IF current_setting('mail.counted_by_import', true) = 'on' THEN RETURN NULL; END IF;
  WITH saved AS (
    INSERT INTO report_contact_statuses (contact_id, workspace_id, status)
    SELECT d.contact_id, d.workspace_id, d.status FROM new_rows n
    CROSS JOIN LATERAL (SELECT * FROM derived_contact_statuses d WHERE d.contact_id = n.id OFFSET 0) d
    ON CONFLICT (contact_id) DO NOTHING
    RETURNING contact_id, status
  ), per_instant AS (
    SELECT n.workspace_id, n.created_at, count(*) AS added, count(s.contact_id) AS total,
      count(*) FILTER (WHERE s.status = 'unsubscribed') AS unsubscribed,
      count(*) FILTER (WHERE s.status = 'bounced') AS bounced,
      count(*) FILTER (WHERE s.status = 'complained') AS complained
    FROM new_rows n LEFT JOIN saved s ON s.contact_id = n.id
    GROUP BY 1, 2
  )
  SELECT jsonb_agg(to_jsonb(p)) INTO counts FROM per_instant p;
  PERFORM report_count_new_contacts(counts);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- As in 0029, skipped for an import chunk's statement (mail.counted_by_import): its new contacts need no
-- recount, and it recounts the existing contacts whose subscriptions it changed with report_refresh_contacts.
CREATE OR REPLACE FUNCTION report_subscriptions_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('mail.counted_by_import', true) = 'on' THEN RETURN NULL; END IF;
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
