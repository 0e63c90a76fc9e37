import type { BulkActionKind } from "./bulk-action-schemas";

export type BulkActionStatus = "running" | "completed" | "failed";

/** A bulk action as the contacts screen shows its progress. */
export interface BulkActionView {
  id: string;
  kind: BulkActionKind;
  status: BulkActionStatus;
  /** Null until the run has counted the selection. */
  total: number | null;
  done: number;
  error: string | null;
}

/** Whether the run still works on it: the screen polls it until then. */
export function bulkActionRunning(status: BulkActionStatus): boolean {
  return status === "running";
}

/** What it does, in words: "Erasing" while it runs, "Erased" once done. */
export function bulkActionWords(kind: BulkActionKind): { running: string; done: string } {
  return {
    add_to_list: { running: "Adding to the list", done: "Added to the list" },
    remove_from_list: { running: "Taking off the list", done: "Taken off the list" },
    unsubscribe: { running: "Unsubscribing", done: "Unsubscribed" },
    erase: { running: "Erasing", done: "Erased" },
  }[kind];
}

/** Whether it gave up before the end (the screen says what went wrong). */
export function bulkActionFailed(status: BulkActionStatus): boolean {
  return status === "failed";
}
