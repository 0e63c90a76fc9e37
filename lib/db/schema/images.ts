import { sql } from "drizzle-orm";
import { check, customType, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

import { createdAt, id } from "./columns";
import { workspaces } from "./workspaces";

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/** Images uploaded for campaign bodies, served publicly (a mail client fetches them) at an unguessable address. */
export const images = pgTable(
  "images",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The public address's secret part: knowing an image's id does not reveal it. */
    token: text("token").notNull(),
    contentType: text("content_type").notNull(),
    byteSize: integer("byte_size").notNull(),
    width: integer("width"),
    height: integer("height"),
    /** Where the bytes are: `database` keeps them in `data`; `s3` in the configured bucket under `storageKey`. */
    storage: text("storage", { enum: ["database", "s3"] })
      .notNull()
      .default("database"),
    storageKey: text("storage_key"),
    data: bytea("data"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("images_token_key").on(t.token),
    index("images_workspace_idx").on(t.workspaceId, t.id),
    check(
      "images_bytes_stored",
      sql`(${t.storage} = 'database' and ${t.data} is not null) or (${t.storage} = 's3' and ${t.storageKey} is not null and ${t.data} is null)`,
    ),
  ],
);
