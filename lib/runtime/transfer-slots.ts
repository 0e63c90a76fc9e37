import "server-only";

import { ApiError } from "@/lib/errors";

/**
 * Uploads and exports a workspace may have under way at once in this
 * process (together). Each holds a spool file and, for its short database
 * moments, a pooled connection: one member's many tabs, or a script, cannot
 * take the process's disk or pool from everyone else.
 */
export const TRANSFERS_PER_WORKSPACE = 3;

const inUse = new Map<string, number>();

export function tooManyTransfers(): ApiError {
  return new ApiError({
    type: "rate_limit_error",
    code: "too_many_transfers",
    message: `At most ${TRANSFERS_PER_WORKSPACE} uploads and exports of a workspace run at once: wait for one to finish.`,
  });
}

/**
 * Takes one of the workspace's transfer slots (`too_many_transfers`, 429, when none is free); the returned function gives it back, once.
 * Internal: held by the import and export verbs, for their actor's workspace.
 */
export function takeTransferSlot(workspaceId: string): () => void {
  const used = inUse.get(workspaceId) ?? 0;
  if (used >= TRANSFERS_PER_WORKSPACE) throw tooManyTransfers();
  inUse.set(workspaceId, used + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inUse.get(workspaceId) ?? 1) - 1;
    if (left > 0) inUse.set(workspaceId, left);
    else inUse.delete(workspaceId);
  };
}
