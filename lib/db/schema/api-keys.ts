import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import { brands } from "./brands";
import { at, createdAt, id } from "./columns";
import { users } from "./users";
import { workspaces } from "./workspaces";

export const KEY_KINDS = ["secret", "publishable"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];
export const KEY_ENVIRONMENTS = ["live", "test"] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

/** Only the SHA-256 of a key is kept; the key itself is shown once, at creation. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull().default(""),
    kind: text("kind", { enum: KEY_KINDS }).notNull(),
    environment: text("environment", { enum: KEY_ENVIRONMENTS }).notNull(),
    /** A brand-locked key sees only that brand's topics, lists and campaigns. */
    brandId: id("brand_id").references(() => brands.id, { onDelete: "cascade" }),
    /** Publishable keys only; empty means any origin. Stored as scheme://host[:port]. */
    allowedOrigins: text("allowed_origins").array().notNull().default([]),
    keyHash: text("key_hash").notNull(),
    /** e.g. `sk_live_`, with `last4`, for display. */
    displayPrefix: text("display_prefix").notNull(),
    last4: text("last4").notNull(),
    revokedAt: at("revoked_at"),
    lastUsedAt: at("last_used_at"),
    /** The member who created it; null for the operator's CLI and keys made before this was recorded. */
    createdByUserId: id("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    // Every /v1 request looks its key up by hash.
    uniqueIndex("api_keys_hash_key").on(t.keyHash),
    index("api_keys_workspace_idx").on(t.workspaceId),
  ],
);
