-- The contact-status rule in one place, as DECISIONS.md now reads it: `subscribed` means currently
-- emailable. A complaint suppression of the address makes the contact complained; a bounce or a
-- soft-bounce (fifth transient) suppression, bounced; any other suppression of the address (manual),
-- a suppression of its domain, an opt-out of everything, or an opt-out of a topic with no confirmed
-- subscription left, unsubscribed. A view rather than a function so that PostgreSQL plans it into
-- each query set-wise (a non-inlinable function per row cost ~90 µs a contact in an import); the
-- report triggers and the rebuild read it, so the four buckets always add up to the total.
CREATE VIEW derived_contact_statuses AS
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_refresh_contacts(p_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(array_length(p_ids, 1), 0) = 0 THEN RETURN; END IF;
  -- Refreshes of one contact take turns; the next statement then sees what the other committed.
  PERFORM 1 FROM report_contact_statuses WHERE contact_id = ANY(p_ids) ORDER BY contact_id FOR UPDATE;
  WITH cur AS (
    SELECT contact_id AS id, workspace_id, status FROM derived_contact_statuses WHERE contact_id = ANY(p_ids)
  ), old AS (
    SELECT contact_id, workspace_id, status FROM report_contact_statuses WHERE contact_id = ANY(p_ids)
  ), diff AS (
    SELECT coalesce(cur.workspace_id, old.workspace_id) AS ws, old.status AS was, cur.status AS now
    FROM cur FULL JOIN old ON old.contact_id = cur.id
    WHERE old.status IS DISTINCT FROM cur.status
  ), saved AS (
    INSERT INTO report_contact_statuses (contact_id, workspace_id, status) SELECT id, workspace_id, status FROM cur
    ON CONFLICT (contact_id) DO UPDATE SET status = excluded.status WHERE report_contact_statuses.status <> excluded.status
  ), dropped AS (
    DELETE FROM report_contact_statuses s WHERE s.contact_id = ANY(p_ids) AND NOT EXISTS (SELECT 1 FROM cur WHERE cur.id = s.contact_id)
  ), delta AS (
    SELECT ws,
      count(now) - count(was) AS total,
      count(*) FILTER (WHERE now = 'unsubscribed') - count(*) FILTER (WHERE was = 'unsubscribed') AS unsubscribed,
      count(*) FILTER (WHERE now = 'bounced') - count(*) FILTER (WHERE was = 'bounced') AS bounced,
      count(*) FILTER (WHERE now = 'complained') - count(*) FILTER (WHERE was = 'complained') AS complained
    FROM diff GROUP BY ws
  )
  UPDATE report_workspace_counters w SET
    contacts_total = w.contacts_total + d.total,
    contacts_unsubscribed = w.contacts_unsubscribed + d.unsubscribed,
    contacts_bounced = w.contacts_bounced + d.bounced,
    contacts_complained = w.contacts_complained + d.complained,
    version = w.version + 1
  FROM delta d WHERE w.workspace_id = d.ws;
END $$;
--> statement-breakpoint
-- A new contact's status without the full refresh (see 0018), now through the one rule.
CREATE OR REPLACE FUNCTION report_contacts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH saved AS (
    INSERT INTO report_contact_statuses (contact_id, workspace_id, status)
    SELECT contact_id, workspace_id, status FROM derived_contact_statuses WHERE contact_id IN (SELECT id FROM new_rows)
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
-- Every suppression now moves a status: of the contact with the address, or of every contact at the
-- domain (a scan of the workspace's contacts, as rare as adding or lifting a domain block).
CREATE OR REPLACE FUNCTION report_suppressions_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM report_refresh_contacts(array(
      SELECT c.id FROM new_rows s JOIN contacts c ON c.workspace_id = s.workspace_id AND c.email = s.email
      UNION SELECT c.id FROM new_rows s JOIN contacts c ON c.workspace_id = s.workspace_id AND split_part(c.email, '@', 2) = s.domain));
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM report_refresh_contacts(array(
      SELECT c.id FROM old_rows s JOIN contacts c ON c.workspace_id = s.workspace_id AND c.email = s.email
      UNION SELECT c.id FROM old_rows s JOIN contacts c ON c.workspace_id = s.workspace_id AND split_part(c.email, '@', 2) = s.domain));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_rebuild(p_ws text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_contact_statuses WHERE workspace_id = p_ws;
  INSERT INTO report_contact_statuses (contact_id, workspace_id, status)
  SELECT contact_id, workspace_id, status FROM derived_contact_statuses WHERE workspace_id = p_ws;

  INSERT INTO report_workspace_counters AS w (workspace_id, contacts_total, contacts_unsubscribed, contacts_bounced, contacts_complained, version, activity_version)
  SELECT p_ws, count(*), count(*) FILTER (WHERE status = 'unsubscribed'), count(*) FILTER (WHERE status = 'bounced'), count(*) FILTER (WHERE status = 'complained'), 1, 1
  FROM report_contact_statuses WHERE workspace_id = p_ws
  ON CONFLICT (workspace_id) DO UPDATE SET contacts_total = excluded.contacts_total, contacts_unsubscribed = excluded.contacts_unsubscribed,
    contacts_bounced = excluded.contacts_bounced, contacts_complained = excluded.contacts_complained,
    version = w.version + 1, activity_version = w.activity_version + 1;

  INSERT INTO report_brand_counters AS b (brand_id, workspace_id, lists_total, list_memberships, topics_total, campaigns_total, campaigns_draft,
    campaigns_scheduled, campaigns_sending, campaigns_paused, campaigns_sent, campaigns_cancelled, version, campaigns_version, activity_version)
  SELECT br.id, br.workspace_id,
    (SELECT count(*) FROM lists l WHERE l.brand_id = br.id),
    (SELECT count(*) FROM list_members m JOIN lists l ON l.id = m.list_id WHERE l.brand_id = br.id),
    (SELECT count(*) FROM topics t WHERE t.brand_id = br.id AND t.archived_at IS NULL),
    cs.total, cs.draft, cs.scheduled, cs.sending, cs.paused, cs.sent, cs.cancelled, 1, 1, 1
  FROM brands br CROSS JOIN LATERAL (
    SELECT count(*) AS total, count(*) FILTER (WHERE status = 'draft') AS draft, count(*) FILTER (WHERE status = 'scheduled') AS scheduled,
      count(*) FILTER (WHERE status = 'sending') AS sending, count(*) FILTER (WHERE status = 'paused') AS paused,
      count(*) FILTER (WHERE status = 'sent') AS sent, count(*) FILTER (WHERE status = 'cancelled') AS cancelled
    FROM campaigns c WHERE c.brand_id = br.id) cs
  WHERE br.workspace_id = p_ws
  ON CONFLICT (brand_id) DO UPDATE SET lists_total = excluded.lists_total, list_memberships = excluded.list_memberships, topics_total = excluded.topics_total,
    campaigns_total = excluded.campaigns_total, campaigns_draft = excluded.campaigns_draft, campaigns_scheduled = excluded.campaigns_scheduled,
    campaigns_sending = excluded.campaigns_sending, campaigns_paused = excluded.campaigns_paused, campaigns_sent = excluded.campaigns_sent,
    campaigns_cancelled = excluded.campaigns_cancelled,
    version = b.version + 1, campaigns_version = b.campaigns_version + 1, activity_version = b.activity_version + 1;

  DELETE FROM report_engagement_queue WHERE workspace_id = p_ws;
  INSERT INTO report_campaign_counters AS c (campaign_id, workspace_id, brand_id, recipients, queued, accepted, failed, skipped, cancelled,
    delivered, bounced, complained, opened, clicked, unsubscribed)
  SELECT cm.id, cm.workspace_id, cm.brand_id, coalesce(s.recipients, 0), coalesce(s.queued, 0), coalesce(s.accepted, 0), coalesce(s.failed, 0),
    coalesce(s.skipped, 0), coalesce(s.cancelled, 0), coalesce(s.delivered, 0), coalesce(s.bounced, 0), coalesce(s.complained, 0),
    coalesce(s.opened, 0), coalesce(s.clicked, 0), coalesce(s.unsubscribed, 0)
  FROM campaigns cm LEFT JOIN (
    SELECT campaign_id, count(*) AS recipients,
      count(*) FILTER (WHERE state IN ('queued', 'sending')) AS queued,
      count(*) FILTER (WHERE state = 'accepted') AS accepted,
      count(*) FILTER (WHERE state = 'failed' AND coalesce(failure_reason, '') NOT LIKE 'missing_merge_tag:%') AS failed,
      count(*) FILTER (WHERE state = 'failed' AND failure_reason LIKE 'missing_merge_tag:%') AS skipped,
      count(*) FILTER (WHERE state = 'cancelled') AS cancelled,
      count(delivered_at) AS delivered, count(bounced_at) AS bounced, count(complained_at) AS complained,
      count(opened_at) AS opened, count(clicked_at) AS clicked, count(unsubscribed_at) AS unsubscribed
    FROM sends WHERE workspace_id = p_ws GROUP BY campaign_id) s ON s.campaign_id = cm.id
  WHERE cm.workspace_id = p_ws
  ON CONFLICT (campaign_id) DO UPDATE SET brand_id = excluded.brand_id, recipients = excluded.recipients, queued = excluded.queued,
    accepted = excluded.accepted, failed = excluded.failed, skipped = excluded.skipped, cancelled = excluded.cancelled,
    delivered = excluded.delivered, bounced = excluded.bounced, complained = excluded.complained, opened = excluded.opened,
    clicked = excluded.clicked, unsubscribed = excluded.unsubscribed;

  DELETE FROM report_activity WHERE workspace_id = p_ws;
  INSERT INTO report_activity (workspace_id, grain, bucket_at, brand_id, contacts_added, unsubscribes, campaigns_sent, opens, clicks)
  SELECT p_ws, g.grain, g.bucket_at, e.brand_id, sum(e.contacts_added), sum(e.unsubscribes), sum(e.campaigns_sent), sum(e.opens), sum(e.clicks)
  FROM (
    SELECT created_at AS at, '' AS brand_id, 1 AS contacts_added, 0 AS unsubscribes, 0 AS campaigns_sent, 0 AS opens, 0 AS clicks FROM contacts WHERE workspace_id = p_ws
    UNION ALL SELECT sent_at, brand_id, 0, 0, 1, 0, 0 FROM campaigns WHERE workspace_id = p_ws AND sent_at IS NOT NULL
    UNION ALL SELECT s.opened_at, c.brand_id, 0, 0, 0, 1, 0 FROM sends s JOIN campaigns c ON c.id = s.campaign_id WHERE s.workspace_id = p_ws AND s.opened_at IS NOT NULL
    UNION ALL SELECT s.clicked_at, c.brand_id, 0, 0, 0, 0, 1 FROM sends s JOIN campaigns c ON c.id = s.campaign_id WHERE s.workspace_id = p_ws AND s.clicked_at IS NOT NULL
    -- Opt-outs are known from their events; an opt-out of everything is workspace-wide.
    UNION ALL SELECT occurred_at, CASE WHEN data->>'scope' = 'all' THEN '' ELSE coalesce(data->>'brand_id', '') END, 0, 1, 0, 0, 0
      FROM events WHERE workspace_id = p_ws AND type = 'contact.unsubscribed'
  ) e CROSS JOIN LATERAL report_grains(e.at) g
  GROUP BY 1, 2, 3, 4;
END $$;
--> statement-breakpoint
-- Recount every workspace under the rule (manual, domain and soft-bounce suppressions move buckets).
SELECT report_rebuild(id) FROM workspaces;
