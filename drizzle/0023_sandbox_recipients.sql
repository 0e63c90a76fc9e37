-- Who a workspace in its sandbox may mail: every member's own sign-in address, and the addresses it
-- added and proved its own through the link mailed to them. One home for the rule: the batch, the
-- exclusion preview and the test mail read it.
CREATE VIEW "sandbox_recipients" AS
  SELECT v.workspace_id, v.email FROM verified_addresses v WHERE v.verified_at IS NOT NULL
  UNION
  SELECT m.workspace_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id;
