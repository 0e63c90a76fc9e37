import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

import { at, id } from "./columns";

/**
 * Request counts per key, bucket and window (one minute for the API, 15 for
 * sign-in; key_id is then a hashed address or an IP). Kept in PostgreSQL so
 * every app instance shares them; the sliding window weighs the previous
 * window's count by how much of it still overlaps.
 */
export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    keyId: id("key_id").notNull(),
    bucket: text("bucket").notNull(),
    windowStart: at("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.bucket, t.windowStart] })],
);
