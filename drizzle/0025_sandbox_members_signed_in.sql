-- A member counts as a sandbox recipient once they have signed in (set a password): an invitation
-- alone proves nothing about the address, and would let a workspace mail anyone by inviting them.
CREATE OR REPLACE VIEW "sandbox_recipients" AS
  SELECT v.workspace_id, v.email FROM verified_addresses v WHERE v.verified_at IS NOT NULL
  UNION
  SELECT m.workspace_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.password_hash IS NOT NULL;
