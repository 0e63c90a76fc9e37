import "server-only";

import { and, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { contacts } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

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
export async function createContact(
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
