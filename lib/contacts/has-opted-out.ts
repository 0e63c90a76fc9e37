import "server-only";

import { eq, sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { contacts } from "@/lib/db/schema";

import { CONTACT_OPTED_OUT_SQL } from "./contact-status";

/**
 * Whether the contact opted out (the `unsubscribed` rule of docs/readings.md,
 * "Contact status"), whatever suppressions also cover the address: a bounce
 * or a complaint must never make an opted-out contact writable again.
 */
export async function hasOptedOut(ctx: Ctx, contactId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ optedOut: sql<boolean>`${sql.raw(CONTACT_OPTED_OUT_SQL)}` })
    .from(contacts)
    .where(eq(contacts.id, contactId));
  return row?.optedOut === true;
}
