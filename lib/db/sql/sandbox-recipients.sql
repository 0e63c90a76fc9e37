-- The sandbox-recipients view as the migrated database holds it. Migrations still make every change
-- (drizzle/); a migration that changes this view must change this file too, and
-- lib/db/sql/definitions.test.ts fails until it does.
--
-- Who a workspace in its sandbox may mail (docs/readings.md, "The sandbox"): the addresses it added
-- and proved its own through the link mailed to them, and its members' own sign-in addresses once
-- they have accepted the membership and set a password. An invitation alone proves nothing about the
-- address, and would let a workspace mail anyone by inviting them. One home for the rule: the batch,
-- the exclusion preview and the test mail read it.
CREATE OR REPLACE VIEW sandbox_recipients AS
  SELECT v.workspace_id, v.email FROM verified_addresses v WHERE v.verified_at IS NOT NULL
  UNION
  SELECT m.workspace_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
  WHERE u.password_hash IS NOT NULL AND m.accepted_at IS NOT NULL;
