import type { ImportStatus } from "@/lib/db/schema";

/**
 * An import's mapping can change until its apply starts: once uploaded, and after a dry run
 * (checking again with another mapping replaces the dry run's result).
 */
export function canEdit(status: ImportStatus): boolean {
  return status === "uploaded" || status === "checked";
}

/** Only a dry run's result is applied: an import starts from `checked`. */
export function canStart(status: ImportStatus): boolean {
  return status === "checked";
}

/** The apply is under way: its progress moves, and stopping it keeps the rows already written. */
export function isApplying(status: ImportStatus): boolean {
  return status === "applying";
}

/**
 * The import is over: applied in full, cancelled (before its apply or during it) or failed. What it
 * did is its outcome; nothing about it changes any more.
 */
export function hasEnded(status: ImportStatus): boolean {
  return status === "completed" || status === "cancelled" || status === "failed";
}

/** Every row was applied: the whole file is in the audience (but the rows refused). */
export function isComplete(status: ImportStatus): boolean {
  return status === "completed";
}
