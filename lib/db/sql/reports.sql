-- The report functions and triggers as the migrated database holds them: each one's current
-- definition, in one place to read. Migrations still make every change (drizzle/); a migration
-- that changes a function or trigger here must change this file too, and
-- lib/db/sql/definitions.test.ts fails until it does.
--
-- Report counters are maintained as changes happen (tables in lib/db/schema/reports.ts). Triggers,
-- not calls from each writer, so that every path that writes the audience (API with live or test
-- keys, consent pages, provider events, imports, the admin CLI, fixtures) keeps the figures exact in
-- the same transaction. Triggers are per statement with transition tables: a bulk statement (the
-- audience snapshot, a send batch) costs one aggregate, not one trigger call per row.
-- First deliveries, opens and clicks only append to report_engagement_queue (no hot counter row on
-- the tracking path); report_fold_engagement() folds them in (cron, at most 30 s late).

-- Grains of the activity rollups: the UTC day, the minute and the exact instant.
CREATE OR REPLACE FUNCTION report_grains(p_at timestamptz) RETURNS TABLE (grain text, bucket_at timestamptz)
LANGUAGE sql STABLE AS $$
  VALUES ('d', date_trunc('day', p_at, 'UTC')), ('m', date_trunc('minute', p_at, 'UTC')), ('x', p_at)
$$;

-- Adds signed counts to the activity series at one instant and bumps the matching activity version.
CREATE OR REPLACE FUNCTION report_add_activity(p_ws text, p_brand text, p_at timestamptz, p_contacts bigint, p_unsubscribes bigint, p_campaigns bigint, p_opens bigint, p_clicks bigint)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_activity (workspace_id, grain, bucket_at, brand_id, contacts_added, unsubscribes, campaigns_sent, opens, clicks)
  SELECT p_ws, g.grain, g.bucket_at, p_brand, p_contacts, p_unsubscribes, p_campaigns, p_opens, p_clicks FROM report_grains(p_at) g
  ON CONFLICT (workspace_id, grain, bucket_at, brand_id) DO UPDATE SET
    contacts_added = report_activity.contacts_added + excluded.contacts_added,
    unsubscribes = report_activity.unsubscribes + excluded.unsubscribes,
    campaigns_sent = report_activity.campaigns_sent + excluded.campaigns_sent,
    opens = report_activity.opens + excluded.opens,
    clicks = report_activity.clicks + excluded.clicks;
  IF p_brand = '' THEN
    UPDATE report_workspace_counters SET activity_version = activity_version + 1 WHERE workspace_id = p_ws;
  ELSE
    UPDATE report_brand_counters SET activity_version = activity_version + 1 WHERE brand_id = p_brand;
  END IF;
END $$;

-- Recomputes the status of these contacts under the one rule (derived_contact_statuses) and moves the
-- workspace's buckets by the difference.
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

-- Every workspace and every brand gets its counters row as it is created.
CREATE OR REPLACE FUNCTION report_workspaces_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_workspace_counters (workspace_id) SELECT id FROM new_rows ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_workspaces_insert AFTER INSERT ON workspaces REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_workspaces_insert();

CREATE OR REPLACE FUNCTION report_brands_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_brand_counters (brand_id, workspace_id) SELECT id, workspace_id FROM new_rows ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_brands_insert AFTER INSERT ON brands REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_brands_insert();

-- New contacts counted in: the workspace's status buckets, and contacts_added in the activity series
-- at the instant they were created (workspace-wide, brand ''). The one home of that count: the
-- contact insert trigger below calls it once per statement, and an import's chunk, which writes its
-- new contacts' status rows itself in the statement that creates them, calls it once with the
-- chunk's totals. p_counts: [{ workspace_id, created_at, added, total, unsubscribed, bounced, complained }],
-- where added counts new contacts and total the status rows written for them.
-- The counts are queued, not added: the workspace's counter row is one row that every writer of the
-- workspace would wait for until it commits (a contact insert held it through its commit, so
-- concurrent signups took turns). report_fold_contact_counts adds them; every reader of these figures
-- calls it first, so they are exact at the next request.
CREATE OR REPLACE FUNCTION report_count_new_contacts(p_counts jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(jsonb_array_length(p_counts), 0) = 0 THEN RETURN; END IF;
  INSERT INTO report_contact_count_queue (workspace_id, created_at, added, total, unsubscribed, bounced, complained)
  SELECT c.workspace_id, c.created_at, c.added, c.total, c.unsubscribed, c.bounced, c.complained
  FROM jsonb_to_recordset(p_counts) AS c(workspace_id text, created_at timestamptz, added bigint, total bigint, unsubscribed bigint, bounced bigint, complained bigint);
END $$;

-- Adds one workspace's queued new-contact counts to its status buckets and activity series, and bumps
-- their versions. Takes the queued rows in id order and waits for rows another fold holds, so that a
-- reader folding first sees every count committed before it, and two folds cannot deadlock. Returns
-- how many queued rows it folded.
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

-- Contacts: a status row each, counted in by report_count_new_contacts.
-- A new contact has no status row yet, so there is no earlier bucket to lock, read or take it out of:
-- one insert per contact instead of a full refresh, and one activity row per distinct instant (an
-- import chunk shares one) instead of three per contact. ON CONFLICT keeps the rare statement that
-- inserts a contact and its subscriptions together correct: whichever trigger runs first writes and
-- counts the status, the other one leaves it.
-- Each new contact's status is looked up by its key. A plpgsql statement keeps the plan of its first
-- run for the session; a plan made for an import's first chunk (a hash join over every contact and
-- every subscription) made each later chunk and each single-row insert on that connection read them
-- all (91 ms instead of 0.7 ms per insert, measured). The sub-select per new row (OFFSET 0 keeps the
-- planner from flattening it) is planned for one contact whatever the first run was.
-- Skipped while an import chunk's statement that writes and counts its new contacts itself runs
-- (mail.counted_by_import, set around that one statement: lib/imports/apply-import-chunk.ts).
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
CREATE OR REPLACE TRIGGER report_contacts_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_contacts_insert();

CREATE OR REPLACE FUNCTION report_contacts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_contacts(array(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.opted_out_at IS DISTINCT FROM o.opted_out_at OR n.email <> o.email OR n.workspace_id <> o.workspace_id));
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_contacts_update AFTER UPDATE ON contacts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_contacts_update();

CREATE OR REPLACE FUNCTION report_contacts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_refresh_contacts(array(SELECT id FROM old_rows));
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_contacts_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_contacts_delete();

-- Subscriptions move a contact's status (pending ones never do). A new confirmed subscription can
-- only move a contact from unsubscribed to subscribed, so a contact whose status is already
-- subscribed, in a status row this very transaction wrote (and so holds locked until it commits: no
-- concurrent refresh can interleave), needs no refresh: an import's new contacts, subscribed right
-- after they are created, skip the second recount. A row written under a savepoint carries the
-- subtransaction's id and is simply refreshed. The test is a scalar sub-select: as an EXISTS
-- PostgreSQL hashed it, reading every status of every workspace once per statement (80 ms per import
-- chunk at 900,000 contacts), where each subscription needs one key.
-- Skipped for an import chunk's statement (mail.counted_by_import): its new contacts need no recount,
-- and it recounts the existing contacts whose subscriptions it changed with report_refresh_contacts.
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
CREATE OR REPLACE TRIGGER report_subscriptions_insert AFTER INSERT ON subscriptions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_subscriptions_change();
CREATE OR REPLACE TRIGGER report_subscriptions_update AFTER UPDATE ON subscriptions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_subscriptions_change();
CREATE OR REPLACE TRIGGER report_subscriptions_delete AFTER DELETE ON subscriptions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_subscriptions_change();

-- Every suppression moves a status: of the contact with the address, or of every contact at the
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
CREATE OR REPLACE TRIGGER report_suppressions_insert AFTER INSERT ON suppressions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_suppressions_change();
CREATE OR REPLACE TRIGGER report_suppressions_update AFTER UPDATE ON suppressions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_suppressions_change();
CREATE OR REPLACE TRIGGER report_suppressions_delete AFTER DELETE ON suppressions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_suppressions_change();

-- Lists and memberships, per brand.
CREATE OR REPLACE FUNCTION report_lists_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_brand_counters b SET lists_total = b.lists_total + d.n, version = b.version + 1
  FROM (SELECT brand_id, count(*) AS n FROM new_rows GROUP BY brand_id) d WHERE b.brand_id = d.brand_id;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_lists_insert AFTER INSERT ON lists REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_lists_insert();

-- Before the row goes: its memberships are still there to be counted out (the cascade that
-- deletes them no longer finds the list, so their own trigger skips them).
CREATE OR REPLACE FUNCTION report_lists_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_brand_counters SET lists_total = lists_total - 1,
    list_memberships = list_memberships - (SELECT count(*) FROM list_members WHERE list_id = OLD.id), version = version + 1
  WHERE brand_id = OLD.brand_id;
  RETURN OLD;
END $$;
CREATE OR REPLACE TRIGGER report_lists_delete BEFORE DELETE ON lists FOR EACH ROW EXECUTE FUNCTION report_lists_delete();

CREATE OR REPLACE FUNCTION report_list_members_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE report_brand_counters b SET list_memberships = b.list_memberships + d.n, version = b.version + 1
    FROM (SELECT l.brand_id, count(*) AS n FROM new_rows m JOIN lists l ON l.id = m.list_id GROUP BY l.brand_id) d WHERE b.brand_id = d.brand_id;
  ELSE
    UPDATE report_brand_counters b SET list_memberships = b.list_memberships - d.n, version = b.version + 1
    FROM (SELECT l.brand_id, count(*) AS n FROM old_rows m JOIN lists l ON l.id = m.list_id GROUP BY l.brand_id) d WHERE b.brand_id = d.brand_id;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_list_members_insert AFTER INSERT ON list_members REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_list_members_change();
CREATE OR REPLACE TRIGGER report_list_members_delete AFTER DELETE ON list_members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_list_members_change();

-- Topics, per brand; archived ones are not counted.
CREATE OR REPLACE FUNCTION report_topics_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE report_brand_counters b SET topics_total = b.topics_total + d.n, version = b.version + 1
    FROM (SELECT brand_id, count(*) AS n FROM new_rows WHERE archived_at IS NULL GROUP BY brand_id) d WHERE b.brand_id = d.brand_id;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE report_brand_counters b SET topics_total = b.topics_total + d.n, version = b.version + 1
    FROM (SELECT brand_id, sum(sign) AS n FROM (
            SELECT brand_id, 1 AS sign FROM new_rows WHERE archived_at IS NULL
            UNION ALL SELECT brand_id, -1 FROM old_rows WHERE archived_at IS NULL) x
          GROUP BY brand_id HAVING sum(sign) <> 0) d WHERE b.brand_id = d.brand_id;
  ELSE
    UPDATE report_brand_counters b SET topics_total = b.topics_total - d.n, version = b.version + 1
    FROM (SELECT brand_id, count(*) AS n FROM old_rows WHERE archived_at IS NULL GROUP BY brand_id) d WHERE b.brand_id = d.brand_id;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_topics_insert AFTER INSERT ON topics REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_topics_change();
CREATE OR REPLACE TRIGGER report_topics_update AFTER UPDATE ON topics REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_topics_change();
CREATE OR REPLACE TRIGGER report_topics_delete AFTER DELETE ON topics REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_topics_change();

-- Campaigns: status counts per brand, a counters row per campaign, campaigns_sent at the send time.
CREATE OR REPLACE FUNCTION report_campaigns_apply(p_rows jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_rows IS NULL THEN RETURN; END IF;
  -- p_rows: [{ brand_id, status, sign }]; one status count moves per row.
  UPDATE report_brand_counters b SET
    campaigns_total = b.campaigns_total + d.total,
    campaigns_draft = b.campaigns_draft + d.draft,
    campaigns_scheduled = b.campaigns_scheduled + d.scheduled,
    campaigns_sending = b.campaigns_sending + d.sending,
    campaigns_paused = b.campaigns_paused + d.paused,
    campaigns_sent = b.campaigns_sent + d.sent,
    campaigns_cancelled = b.campaigns_cancelled + d.cancelled,
    version = b.version + 1
  FROM (
    SELECT x.brand_id, sum(x.sign) AS total,
      coalesce(sum(x.sign) FILTER (WHERE x.status = 'draft'), 0) AS draft,
      coalesce(sum(x.sign) FILTER (WHERE x.status = 'scheduled'), 0) AS scheduled,
      coalesce(sum(x.sign) FILTER (WHERE x.status = 'sending'), 0) AS sending,
      coalesce(sum(x.sign) FILTER (WHERE x.status = 'paused'), 0) AS paused,
      coalesce(sum(x.sign) FILTER (WHERE x.status = 'sent'), 0) AS sent,
      coalesce(sum(x.sign) FILTER (WHERE x.status = 'cancelled'), 0) AS cancelled
    FROM jsonb_to_recordset(p_rows) AS x(brand_id text, status text, sign int)
    GROUP BY x.brand_id
  ) d WHERE b.brand_id = d.brand_id;
END $$;

CREATE OR REPLACE FUNCTION report_campaigns_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_campaign_counters (campaign_id, workspace_id, brand_id) SELECT id, workspace_id, brand_id FROM new_rows ON CONFLICT DO NOTHING;
    PERFORM report_campaigns_apply((SELECT jsonb_agg(jsonb_build_object('brand_id', brand_id, 'status', status, 'sign', 1)) FROM new_rows));
    FOR r IN SELECT workspace_id, brand_id, sent_at FROM new_rows WHERE sent_at IS NOT NULL LOOP
      PERFORM report_add_activity(r.workspace_id, r.brand_id, r.sent_at, 0, 0, 1, 0, 0);
    END LOOP;
    UPDATE report_brand_counters SET campaigns_version = campaigns_version + 1 WHERE brand_id IN (SELECT brand_id FROM new_rows WHERE sent_at IS NOT NULL);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM report_campaigns_apply((
      SELECT jsonb_agg(x) FROM (
        SELECT jsonb_build_object('brand_id', n.brand_id, 'status', n.status, 'sign', 1) AS x FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status <> o.status OR n.brand_id <> o.brand_id
        UNION ALL
        SELECT jsonb_build_object('brand_id', o.brand_id, 'status', o.status, 'sign', -1) FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status <> o.status OR n.brand_id <> o.brand_id) y));
    FOR r IN SELECT n.workspace_id, n.brand_id, n.sent_at AS new_at, o.brand_id AS old_brand, o.sent_at AS old_at
             FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.sent_at IS DISTINCT FROM o.sent_at OR n.brand_id <> o.brand_id LOOP
      IF r.old_at IS NOT NULL THEN PERFORM report_add_activity(r.workspace_id, r.old_brand, r.old_at, 0, 0, -1, 0, 0); END IF;
      IF r.new_at IS NOT NULL THEN PERFORM report_add_activity(r.workspace_id, r.brand_id, r.new_at, 0, 0, 1, 0, 0); END IF;
    END LOOP;
    UPDATE report_campaign_counters c SET brand_id = n.brand_id FROM new_rows n WHERE c.campaign_id = n.id AND c.brand_id <> n.brand_id;
    -- A report row shows name, subject and send time: a change of any of them is a new answer.
    UPDATE report_brand_counters SET campaigns_version = campaigns_version + 1 WHERE brand_id IN (
      SELECT n.brand_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.sent_at IS NOT NULL OR o.sent_at IS NOT NULL)
        AND (n.name <> o.name OR n.subject <> o.subject OR n.sent_at IS DISTINCT FROM o.sent_at OR n.brand_id <> o.brand_id)
      UNION SELECT o.brand_id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.brand_id <> o.brand_id);
  ELSE
    PERFORM report_campaigns_apply((SELECT jsonb_agg(jsonb_build_object('brand_id', brand_id, 'status', status, 'sign', -1)) FROM old_rows));
    UPDATE report_brand_counters SET campaigns_version = campaigns_version + 1 WHERE brand_id IN (SELECT brand_id FROM old_rows WHERE sent_at IS NOT NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_campaigns_insert AFTER INSERT ON campaigns REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_campaigns_change();
CREATE OR REPLACE TRIGGER report_campaigns_update AFTER UPDATE ON campaigns REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_campaigns_change();
CREATE OR REPLACE TRIGGER report_campaigns_delete AFTER DELETE ON campaigns REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_campaigns_change();

-- Sends: the campaign report's counts. States, bounces, complaints and unsubscribes count at once;
-- the first delivery, open and click of a send are queued for the fold, in one pass over the
-- transition tables: an audience snapshot inserts half a million sends per statement, whose
-- transition table outgrows work_mem and is read back from disk on every pass. Inserted rows with no
-- delivery, open or click yet are left out before each is expanded into one row per kind (expanding
-- half a million only to drop every one took 320-380 ms, leaving them out 63 ms).
CREATE OR REPLACE FUNCTION report_sends_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'campaign_id, state, failure_reason, bounced_at, complained_at, unsubscribed_at';
  src text;
BEGIN
  -- A transition table exists only for its own operation, hence the statement is put together here.
  src := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS sign, %s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS sign, %s FROM old_rows', cols)
    ELSE format('SELECT 1 AS sign, %s FROM new_rows UNION ALL SELECT -1, %s FROM old_rows', cols, cols) END;
  EXECUTE format($q$
    WITH signed AS (%s), d AS (
      SELECT campaign_id,
        sum(sign) AS recipients,
        coalesce(sum(sign) FILTER (WHERE state IN ('queued', 'sending')), 0) AS queued,
        coalesce(sum(sign) FILTER (WHERE state = 'accepted'), 0) AS accepted,
        coalesce(sum(sign) FILTER (WHERE state = 'failed' AND coalesce(failure_reason, '') NOT LIKE 'missing_merge_tag:%%'), 0) AS failed,
        coalesce(sum(sign) FILTER (WHERE state = 'failed' AND failure_reason LIKE 'missing_merge_tag:%%'), 0) AS skipped,
        coalesce(sum(sign) FILTER (WHERE state = 'cancelled'), 0) AS cancelled,
        coalesce(sum(sign) FILTER (WHERE bounced_at IS NOT NULL), 0) AS bounced,
        coalesce(sum(sign) FILTER (WHERE complained_at IS NOT NULL), 0) AS complained,
        coalesce(sum(sign) FILTER (WHERE unsubscribed_at IS NOT NULL), 0) AS unsubscribed
      FROM signed GROUP BY campaign_id
    ), changed AS (
      UPDATE report_campaign_counters c SET
        recipients = c.recipients + d.recipients, queued = c.queued + d.queued, accepted = c.accepted + d.accepted,
        failed = c.failed + d.failed, skipped = c.skipped + d.skipped, cancelled = c.cancelled + d.cancelled,
        bounced = c.bounced + d.bounced, complained = c.complained + d.complained, unsubscribed = c.unsubscribed + d.unsubscribed
      FROM d WHERE c.campaign_id = d.campaign_id
        AND (d.recipients, d.queued, d.accepted, d.failed, d.skipped, d.cancelled, d.bounced, d.complained, d.unsubscribed) <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
      RETURNING c.brand_id
    )
    UPDATE report_brand_counters SET campaigns_version = campaigns_version + 1 WHERE brand_id IN (SELECT brand_id FROM changed)$q$, src);

  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_engagement_queue (workspace_id, campaign_id, kind, occurred_at)
    SELECT n.workspace_id, n.campaign_id, e.kind, e.occurred_at FROM new_rows n
    CROSS JOIN LATERAL (VALUES ('delivered', n.delivered_at), ('opened', n.opened_at), ('clicked', n.clicked_at)) e(kind, occurred_at)
    WHERE (n.delivered_at IS NOT NULL OR n.opened_at IS NOT NULL OR n.clicked_at IS NOT NULL) AND e.occurred_at IS NOT NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO report_engagement_queue (workspace_id, campaign_id, kind, occurred_at)
    SELECT n.workspace_id, n.campaign_id, e.kind, e.occurred_at FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL (VALUES ('delivered', n.delivered_at, o.delivered_at), ('opened', n.opened_at, o.opened_at), ('clicked', n.clicked_at, o.clicked_at)) e(kind, occurred_at, was)
    WHERE e.was IS NULL AND e.occurred_at IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER report_sends_insert AFTER INSERT ON sends REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_sends_change();
CREATE OR REPLACE TRIGGER report_sends_update AFTER UPDATE ON sends REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_sends_change();
CREATE OR REPLACE TRIGGER report_sends_delete AFTER DELETE ON sends REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_sends_change();

-- Folds queued first deliveries, opens and clicks into the campaign counters and the activity
-- series, oldest first, at most p_limit of them (only one campaign's when p_campaign is given).
-- Rows another fold holds are skipped, so folds may overlap. Returns how many were folded.
CREATE OR REPLACE FUNCTION report_fold_engagement(p_limit int, p_campaign text DEFAULT NULL) RETURNS int LANGUAGE plpgsql AS $$
DECLARE folded int;
BEGIN
  WITH taken AS (
    DELETE FROM report_engagement_queue q WHERE q.id IN (
      SELECT id FROM report_engagement_queue WHERE p_campaign IS NULL OR campaign_id = p_campaign ORDER BY id LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING q.workspace_id, q.campaign_id, q.kind, q.occurred_at
  ), per_campaign AS (
    SELECT campaign_id,
      count(*) FILTER (WHERE kind = 'delivered') AS delivered,
      count(*) FILTER (WHERE kind = 'opened') AS opened,
      count(*) FILTER (WHERE kind = 'clicked') AS clicked
    FROM taken GROUP BY campaign_id
  ), counted AS (
    UPDATE report_campaign_counters c SET delivered = c.delivered + p.delivered, opened = c.opened + p.opened, clicked = c.clicked + p.clicked
    FROM per_campaign p WHERE c.campaign_id = p.campaign_id
    RETURNING c.campaign_id, c.brand_id
  ), activity AS (
    INSERT INTO report_activity (workspace_id, grain, bucket_at, brand_id, opens, clicks)
    SELECT t.workspace_id, g.grain, g.bucket_at, c.brand_id, count(*) FILTER (WHERE t.kind = 'opened'), count(*) FILTER (WHERE t.kind = 'clicked')
    FROM taken t JOIN counted c ON c.campaign_id = t.campaign_id CROSS JOIN LATERAL report_grains(t.occurred_at) g
    WHERE t.kind <> 'delivered'
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (workspace_id, grain, bucket_at, brand_id) DO UPDATE SET
      opens = report_activity.opens + excluded.opens, clicks = report_activity.clicks + excluded.clicks
    RETURNING brand_id
  ), versions AS (
    UPDATE report_brand_counters b SET campaigns_version = b.campaigns_version + 1,
      activity_version = b.activity_version + (CASE WHEN b.brand_id IN (SELECT brand_id FROM activity) THEN 1 ELSE 0 END)
    WHERE b.brand_id IN (SELECT brand_id FROM counted)
  )
  SELECT count(*) INTO folded FROM taken;
  RETURN folded;
END $$;

-- Recomputes every report figure of one workspace from its rows: the migrations' backfills, and the
-- benchmark's seed. Versions move forward, never back, so no old ETag matches afterwards.
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
