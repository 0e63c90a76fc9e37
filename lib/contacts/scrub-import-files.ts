import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";

const ERASED_DETAIL = "Erased at the person's request.";
const CANCELLED_FOR_ERASURE =
  "Cancelled: it holds a person who was erased at their request. Upload the file again: their row will be refused.";

/**
 * The erased addresses leave the workspace's imports. A staged row holding one is emptied and kept
 * refused as `erased` (an import's counts and row numbers stay; an apply under way skips it); a
 * preview row holding one is blanked. The uploaded file itself cannot be edited in place (any
 * encoding, any quoting), so an import whose file holds one loses its file: one not yet applied is
 * cancelled, to be uploaded again; a finished one would have lost it within the hour anyway
 * (lib/retention/prune-imports.ts); one applying reads its staged rows, not its file. A file only
 * uploaded, never checked, has no staged rows: its bytes are searched for the address as written
 * in UTF-8 (or ASCII, or Latin-1 for an ASCII address), lower-case as the address was stored.
 * Internal: eraseContacts, inside its transaction, with its actor's workspace; `addresses` is a query
 * of the erased addresses (one column, `email`), so they stay in the database.
 */
export async function scrubImportFiles(ctx: Ctx, workspaceId: string, addresses: SQL): Promise<void> {
  // The imports touched, once each (not a row per staged row).
  const staged = (await ctx.db.execute(sql`
    with emptied as (
    update import_rows r set email = '', first_name = null, last_name = null, attributes = '{}'::jsonb,
      refusal = 'erased', detail = ${ERASED_DETAIL}
    from imports i
    where i.id = r.import_id and i.workspace_id = ${workspaceId} and r.email in (${addresses})
    returning r.import_id)
    select distinct import_id from emptied`)) as unknown as { import_id: string }[];

  // Each preview holding an address, with the addresses it holds (only those leave the database); the
  // preview lowered once, not once per address (offset 0 keeps PostgreSQL from inlining it back).
  const previews = (await ctx.db.execute(sql`
    select i.id, i.preview, h.emails from imports i
    cross join lateral (select lower(i.preview::text) as text offset 0) t
    cross join lateral (select array_agg(a.email) as emails from (${addresses}) a where strpos(t.text, a.email) > 0) h
    where i.workspace_id = ${workspaceId} and h.emails is not null`)) as unknown as {
    id: string;
    preview: string[][];
    emails: string[];
  }[];
  for (const { id, preview, emails } of previews) {
    const holds = (row: string[]) => row.some((cell) => emails.some((email) => cell.toLowerCase().includes(email)));
    const blanked = preview.map((row) => (holds(row) ? row.map(() => "") : row));
    await ctx.db.execute(sql`update imports set preview = ${JSON.stringify(blanked)}::jsonb where id = ${id}`);
  }

  const uploaded = (await ctx.db.execute(sql`
    select distinct p.import_id from imports i join import_file_parts p on p.import_id = i.id
    where i.workspace_id = ${workspaceId} and i.status = 'uploaded'
      and exists (select 1 from (${addresses}) a where position(convert_to(a.email, 'UTF8') in p.data) > 0)`)) as unknown as {
    import_id: string;
  }[];

  const holding = [...new Set([...staged, ...uploaded].map((row) => row.import_id).concat(previews.map((p) => p.id)))];
  if (holding.length === 0) return;
  const ids = idArray(holding);
  await ctx.db.execute(sql`delete from import_file_parts where import_id = any(${ids})`);
  const now = ctx.clock.now().toISOString();
  await ctx.db.execute(sql`
    update imports set status = 'cancelled', error = ${CANCELLED_FOR_ERASURE}, finished_at = ${now}, updated_at = ${now}
    where id = any(${ids}) and status in ('uploaded', 'checked')`);
}
