import type { ImportStatus } from "@/lib/db/schema";

/**
 * An import's mapping can change until its apply starts: once uploaded, and after a dry run
 * (checking again with another mapping replaces the dry run's result).
 */
export function canEdit(status: ImportStatus): boolean {
  return status === "uploaded" || status === "checked";
}
