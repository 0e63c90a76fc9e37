-- The triggers that tell every app process which cached /v1 keys to drop, as the migrated database
-- holds them. Migrations still make every change (drizzle/); a migration that changes one must
-- change this file too, and lib/db/sql/definitions.test.ts fails until it does.
--
-- /v1 keys are cached in each app process (KeyAdmission, lib/api/authenticate.ts); these triggers tell every
-- process what to drop, on the channel `api_key_changes`, whatever path writes (revocation from the
-- dashboard or the CLI, an allowlist edit, a brand or workspace deleted with its keys, the billing
-- ladder moving a workspace). Payloads: a key's hash, `ws:<workspace id>` for all of a workspace's
-- keys, `*` for everything. A notification is sent at commit, so a rolled-back change drops nothing.
-- `last_used_at` (written once a minute per key) and `name` change nothing a request checks: no notice.
CREATE FUNCTION api_keys_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_changes', OLD.key_hash);
  RETURN NULL;
END;
$$;
CREATE TRIGGER api_keys_notify_update AFTER UPDATE ON api_keys FOR EACH ROW
WHEN ((OLD.key_hash, OLD.workspace_id, OLD.kind, OLD.environment, OLD.brand_id, OLD.allowed_origins, OLD.revoked_at, OLD.display_prefix, OLD.last4)
      IS DISTINCT FROM (NEW.key_hash, NEW.workspace_id, NEW.kind, NEW.environment, NEW.brand_id, NEW.allowed_origins, NEW.revoked_at, NEW.display_prefix, NEW.last4))
EXECUTE FUNCTION api_keys_notify_change();
CREATE TRIGGER api_keys_notify_delete AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION api_keys_notify_change();
CREATE FUNCTION api_keys_notify_billing_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('api_key_changes', 'ws:' || NEW.workspace_id);
  ELSE
    PERFORM pg_notify('api_key_changes', 'ws:' || OLD.workspace_id);
  END IF;
  RETURN NULL;
END;
$$;
-- The workspace's billing stage decides team_inactive; the send allowance and the rest change often and decide nothing here.
CREATE TRIGGER workspace_billing_notify_insert AFTER INSERT ON workspace_billing FOR EACH ROW EXECUTE FUNCTION api_keys_notify_billing_change();
CREATE TRIGGER workspace_billing_notify_update AFTER UPDATE ON workspace_billing FOR EACH ROW
WHEN (OLD.stage IS DISTINCT FROM NEW.stage OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
EXECUTE FUNCTION api_keys_notify_billing_change();
CREATE TRIGGER workspace_billing_notify_delete AFTER DELETE ON workspace_billing FOR EACH ROW EXECUTE FUNCTION api_keys_notify_billing_change();
CREATE FUNCTION api_keys_notify_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_changes', '*');
  RETURN NULL;
END;
$$;
CREATE TRIGGER api_keys_notify_truncate AFTER TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION api_keys_notify_truncate();
CREATE TRIGGER workspace_billing_notify_truncate AFTER TRUNCATE ON workspace_billing FOR EACH STATEMENT EXECUTE FUNCTION api_keys_notify_truncate();
