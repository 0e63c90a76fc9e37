import { date, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";

import { sendingDomains } from "./brands";
import { id } from "./columns";

/**
 * One UTC day of a sending domain under warm-up: the stage of the schedule it sends at (fixed when the
 * day's first batch is claimed) and how many sends its campaigns claimed that day. Dispatch locks the
 * row while it claims, so campaigns of one domain share the day's cap.
 */
export const domainWarmUpDays = pgTable(
  "domain_warm_up_days",
  {
    domainId: id("domain_id")
      .notNull()
      .references(() => sendingDomains.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    stage: integer("stage").notNull(),
    used: integer("used").notNull().default(0),
  },
  // The primary key also serves "the domain's last day before today" (domain_id = ?, day < ? order by day desc).
  (t) => [primaryKey({ columns: [t.domainId, t.day] })],
);
