CREATE TABLE "report_contact_count_queue" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"added" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"unsubscribed" bigint DEFAULT 0 NOT NULL,
	"bounced" bigint DEFAULT 0 NOT NULL,
	"complained" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_contact_count_queue_workspace_idx" ON "report_contact_count_queue" USING btree ("workspace_id");--> statement-breakpoint
-- New contacts' counts are queued by report_count_new_contacts and added by report_fold_contact_counts,
-- which every reader of the contact buckets and the contacts_added series calls first (lib/db/sql/reports.sql):
-- a contact insert no longer holds the workspace's counter row until it commits.
CREATE OR REPLACE FUNCTION report_count_new_contacts(p_counts jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(jsonb_array_length(p_counts), 0) = 0 THEN RETURN; END IF;
  INSERT INTO report_contact_count_queue (workspace_id, created_at, added, total, unsubscribed, bounced, complained)
  SELECT c.workspace_id, c.created_at, c.added, c.total, c.unsubscribed, c.bounced, c.complained
  FROM jsonb_to_recordset(p_counts) AS c(workspace_id text, created_at timestamptz, added bigint, total bigint, unsubscribed bigint, bounced bigint, complained bigint);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_fold_contact_counts(p_ws text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE folded int;
BEGIN
  WITH taken AS (
    DELETE FROM report_contact_count_queue q WHERE q.id IN (
      SELECT id FROM report_contact_count_queue WHERE workspace_id = p_ws ORDER BY id FOR UPDATE)
    RETURNING q.workspace_id, q.created_at, q.added, q.total, q.unsubscribed, q.bounced, q.complained
  ), activity AS (
    INSERT INTO report_activity (workspace_id, grain, bucket_at, brand_id, contacts_added)
    SELECT t.workspace_id, g.grain, g.bucket_at, '', sum(t.added)
    FROM taken t CROSS JOIN LATERAL report_grains(t.created_at) g
    GROUP BY 1, 2, 3
    ON CONFLICT (workspace_id, grain, bucket_at, brand_id) DO UPDATE SET contacts_added = report_activity.contacts_added + excluded.contacts_added
  ), counted AS (
    UPDATE report_workspace_counters w SET
      contacts_total = w.contacts_total + d.total,
      contacts_unsubscribed = w.contacts_unsubscribed + d.unsubscribed,
      contacts_bounced = w.contacts_bounced + d.bounced,
      contacts_complained = w.contacts_complained + d.complained,
      version = w.version + CASE WHEN d.total > 0 THEN 1 ELSE 0 END,
      activity_version = w.activity_version + 1
    FROM (
      SELECT workspace_id, sum(total) AS total, sum(unsubscribed) AS unsubscribed, sum(bounced) AS bounced, sum(complained) AS complained
      FROM taken GROUP BY 1
    ) d WHERE w.workspace_id = d.workspace_id
  )
  SELECT count(*) INTO folded FROM taken;
  RETURN folded;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_rebuild(p_ws text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Everything is recounted from the rows, queued new-contact counts included.
  DELETE FROM report_contact_count_queue WHERE workspace_id = p_ws;
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
