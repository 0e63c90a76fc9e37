import "server-only";

import { sql } from "drizzle-orm";

import type { Executor } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";

/**
 * The bytes of uploaded files a workspace's imports still hold: every
 * import's file until the clean-up after its apply, cancel or failure
 * (pruneImports) deletes it. Found through the parts' key, one probe an import.
 * Internal: receiveImport's storage check, with its actor's workspace.
 */
export async function importStorageUsed(db: Executor, workspaceId: string): Promise<number> {
  const [row] = await db.execute<{ used: number }>(sql`
    select coalesce(sum(byte_size), 0)::float8 as used from imports i
    where i.workspace_id = ${workspaceId} and exists (select 1 from import_file_parts p where p.import_id = i.id)`);
  return Number(row!.used);
}

export function importStorageFull(maxBytes: number): ApiError {
  return new ApiError({
    type: "invalid_request_error",
    code: "import_storage_full",
    status: 413,
    param: "file",
    message: `The workspace's imports may hold ${Math.floor(maxBytes / (1024 * 1024))} MiB of files at once: apply or cancel an import first (its file is deleted soon after).`,
  });
}
