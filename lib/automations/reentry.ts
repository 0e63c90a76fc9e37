import "server-only";

import { and, desc, eq } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { automationEntries } from "@/lib/db/schema";

/**
 * Internal: whether the person may enter the automation now (docs/readings.md, "Automations", "Entry"):
 * never while an entry of theirs is active (the unique index on active entries holds that against a
 * race too); after an entry ended, only when the automation lets people enter again
 * (`reentry_after_minutes` set) and their last entry ended at least that long ago. The caller (enterAutomations)
 * names an automation of the workspace it holds.
 */
export async function mayEnterAgain(
  ctx: Ctx,
  automation: { id: string; reentryAfterMinutes: number | null },
  contactId: string,
): Promise<boolean> {
  const [last] = await ctx.db
    .select({ status: automationEntries.status, endedAt: automationEntries.endedAt })
    .from(automationEntries)
    .where(and(eq(automationEntries.automationId, automation.id), eq(automationEntries.contactId, contactId)))
    .orderBy(desc(automationEntries.enteredAt))
    .limit(1);
  if (!last) return true;
  if (last.status === "active" || automation.reentryAfterMinutes === null || !last.endedAt) return false;
  return ctx.clock.now().getTime() - last.endedAt.getTime() >= automation.reentryAfterMinutes * 60_000;
}
