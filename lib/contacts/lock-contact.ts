import "server-only";

import { and, eq, sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { cachedPlansDb } from "@/lib/db/client";
import { contacts } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

import { erasedSql } from "./erased-address";

export type ContactRow = typeof contacts.$inferSelect;

/**
 * The workspace's contact for this (normalised) address, created if missing,
 * locked for the rest of the transaction so concurrent writes to one address
 * merge one after the other instead of racing.
 * Internal: the contact and signup-form verbs, with their actor's workspace.
 */
export async function lockOrCreateContact(
  ctx: Ctx,
  workspaceId: string,
  email: string,
  initial: Pick<ContactRow, "firstName" | "lastName" | "attributes"> & { timeZone?: string | null },
): Promise<{ contact: ContactRow; created: boolean }> {
  const inserted = await createContact(ctx, workspaceId, email, initial);
  if (inserted) return { contact: inserted, created: true };
  return { contact: (await lockContact(ctx, workspaceId, email))!, created: false };
}

/** The workspace's contact for this address, locked for the rest of the transaction; null when there is none. Internal: upsertContact's building block, with its actor's workspace. */
export async function lockContact(ctx: Ctx, workspaceId: string, email: string): Promise<ContactRow | null> {
  const [existing] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, email)))
    .for("update");
  return existing ?? null;
}

/** The contact for this address, created now; null when the workspace already has one. Internal: upsertContact's building block, with its actor's workspace. */
async function createContact(
  ctx: Ctx,
  workspaceId: string,
  email: string,
  initial: Pick<ContactRow, "firstName" | "lastName" | "attributes"> & { timeZone?: string | null },
): Promise<ContactRow | null> {
  const now = ctx.clock.now();
  const [inserted] = await ctx.db
    .insert(contacts)
    .values({ id: newId("ct"), workspaceId, email, ...initial, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return inserted ?? null;
}

/**
 * The id and creation time of the contact for this address, created now; null when the workspace
 * already has one or erased a person with this address (only their own signup brings them back:
 * erased-address.ts).
 * One statement, so the common case of POST /v1/contacts needs no transaction and no look-up first.
 * Internal: upsertContact's building block, with its actor's workspace.
 */
export async function createContactUnlessErased(
  ctx: Ctx,
  workspaceId: string,
  email: string,
  initial: Pick<ContactRow, "firstName" | "lastName" | "attributes"> & { timeZone?: string | null },
): Promise<{ id: string; createdAt: Date } | null> {
  const createdAt = ctx.clock.now();
  const now = createdAt.toISOString();
  // Every row reached by its key: planned once per connection (cachedPlansDb).
  const [row] = await cachedPlansDb(ctx.db).execute<{ id: string }>(sql`
    insert into contacts (id, workspace_id, email, first_name, last_name, attributes, time_zone, created_at, updated_at)
    select ${newId("ct")}, ${workspaceId}, ${email}, ${initial.firstName}, ${initial.lastName},
           ${JSON.stringify(initial.attributes)}::jsonb, ${initial.timeZone ?? null}, ${now}::timestamptz, ${now}::timestamptz
    where not ${erasedSql(workspaceId, sql`${email}::text`)}
    on conflict do nothing
    returning id`);
  return row ? { id: row.id, createdAt } : null;
}

/**
 * Internal: the workspace's contacts matching `which` (a condition on `contacts`: a bulk action's chunk),
 * locked for the rest of the transaction, in id order so that two chunks cannot deadlock, and noted in the
 * temporary table `table` (id, email, dropped at commit) that the set-based verbs join instead of
 * sending ids back and forth.
 */
export async function lockContactsInto(ctx: Ctx, table: string, workspaceId: string, which: SQL): Promise<void> {
  const name = sql.identifier(table);
  await ctx.db.execute(sql`drop table if exists ${name}`);
  await ctx.db.execute(sql`
    create temporary table ${name} on commit drop as
    select contacts.id, contacts.email from contacts
    where contacts.workspace_id = ${workspaceId} and (${which})
    order by contacts.id for update`);
}
