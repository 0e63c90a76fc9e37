import { customType, timestamp } from "drizzle-orm/pg-core";

/**
 * Prefixed ULID identifiers. The "C" collation compares bytes, so id order is
 * creation order on any server whatever its default collation; keyset
 * pagination relies on that.
 */
export const id = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

export const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
export const createdAt = () => at("created_at").notNull().defaultNow();
export const updatedAt = () => at("updated_at").notNull().defaultNow();
