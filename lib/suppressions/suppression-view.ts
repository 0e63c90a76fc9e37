import { suppressions } from "@/lib/db/schema";

export type SuppressionRow = typeof suppressions.$inferSelect;
