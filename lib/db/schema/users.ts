import { boolean, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

import { at, createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

export const users = pgTable(
  "users",
  {
    id: id("id").primaryKey(),
    /** Normalised (trimmed, NFC, lower-case). */
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    /** Null for someone named as a workspace owner who has not set a password yet: cannot sign in. */
    passwordHash: text("password_hash"),
    /** The 14-day trial is per person: a second workspace starts read-only. */
    trialUsedAt: at("trial_used_at"),
    /** One of the service's own operators: reviews workspaces and brands (user:create --operator, user:grant-operator). */
    isOperator: boolean("is_operator").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export const MEMBERSHIP_ROLES = ["owner", "admin", "member"] as const;

export const memberships = pgTable(
  "memberships",
  {
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: id("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: MEMBERSHIP_ROLES }).notNull().default("member"),
    /**
     * When the person accepted the membership: followed their invitation's link (setting a password when
     * they had none). Null while an invitation waits; the workspace's creator and the operator's additions
     * are accepted at once. Only accepted members are the sandbox's recipients (sandbox_recipients).
     */
    acceptedAt: at("accepted_at"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    // The signed-in shell lists a user's workspaces.
    index("memberships_user_idx").on(t.userId),
  ],
);
