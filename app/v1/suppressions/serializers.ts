import type { SuppressionRow } from "@/lib/suppressions/suppression-view";

export function serializeSuppression(row: SuppressionRow) {
  return {
    id: row.id,
    email: row.email,
    domain: row.domain,
    reason: row.reason,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}
