import { customType, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
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
    data: bytea("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("images_token_key").on(t.token), index("images_workspace_idx").on(t.workspaceId, t.id)],
);
