-- Memberships made before acceptance was recorded. Accepted: owners (the workspace's creator, or the
-- person the operator named), and members whose account this membership's invitation made (created
-- in the same transaction, so within a minute before it) and who have set their password from its
-- link. Left waiting: members whose account existed before they were invited. They were added
-- without being asked; a resent invitation lets them accept.
UPDATE "memberships" m SET "accepted_at" = m."created_at"
  FROM "users" u
  WHERE u."id" = m."user_id"
    AND (m."role" = 'owner' OR (u."password_hash" IS NOT NULL AND u."created_at" > m."created_at" - interval '1 minute'));--> statement-breakpoint
-- A member counts as a sandbox recipient once they have accepted the membership and have a password:
-- adding an existing account to a workspace proves nothing about the address until its owner follows
-- the invitation's link.
CREATE OR REPLACE VIEW "sandbox_recipients" AS
  SELECT v.workspace_id, v.email FROM verified_addresses v WHERE v.verified_at IS NOT NULL
  UNION
  SELECT m.workspace_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
  WHERE u.password_hash IS NOT NULL AND m.accepted_at IS NOT NULL;
