import "server-only";

import { and, count, eq, ne, sql } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import { withTransaction, type Ctx } from "@/lib/context";
import { automationEntries, automations, automationVersions } from "@/lib/db/schema";

import { numberSteps } from "./automation-schemas";
import { getAutomationOrThrow, latestVersion } from "./automations";

/**
 * Moves everyone still inside an older version of the automation to its newest version
 * (docs/readings.md, "Automations", "Editing a live automation"), each at the same step number when
 * the newest version has it; a person past its last step completes at their next step. The entry row is
 * where a run reads its place at every step boundary, so each run picks the move up there: a run asleep
 * in a wait wakes when that wait ends and goes on in the newest version (the step at its number being
 * of the same kind, the wait counts as done; else that step is done next). Sends stay keyed by entry and
 * step number, and a person's steps only go forward, so nobody is mailed a step twice.
 */
export async function moveEntriesToLatest(
  ctx: Ctx,
  actor: Actor,
  automationId: string,
): Promise<{ moved: number; version: number | null }> {
  await getAutomationOrThrow(ctx, actor, automationId);
  return withTransaction(ctx, async (tx) => {
    // Serialized with setting new steps, which locks the automation too.
    await tx.db.select({ id: automations.id }).from(automations).where(eq(automations.id, automationId)).for("update");
    const latest = await latestVersion(tx, automationId);
    if (!latest) return { moved: 0, version: null };
    const stepCount = numberSteps(latest.steps).length;
    const moved = await tx.db
      .update(automationEntries)
      .set({ versionId: latest.id, stepIndex: sql`least(${automationEntries.stepIndex}, ${stepCount})` })
      .where(
        and(
          eq(automationEntries.automationId, automationId),
          eq(automationEntries.status, "active"),
          ne(automationEntries.versionId, latest.id),
        ),
      )
      .returning({ id: automationEntries.id });
    return { moved: moved.length, version: latest.number };
  });
}

/** For the editor: how many people are inside each version now ("12 people are on version 2"), newest first. */
export async function activeEntriesByVersion(
  ctx: Ctx,
  actor: Actor,
  automationId: string,
): Promise<{ versionId: string; version: number; active: number }[]> {
  await getAutomationOrThrow(ctx, actor, automationId);
  const rows = await ctx.db
    .select({
      versionId: automationVersions.id,
      version: automationVersions.number,
      active: count(automationEntries.id),
    })
    .from(automationVersions)
    .leftJoin(
      automationEntries,
      and(eq(automationEntries.versionId, automationVersions.id), eq(automationEntries.status, "active")),
    )
    .where(eq(automationVersions.automationId, automationId))
    .groupBy(automationVersions.id, automationVersions.number);
  return rows.sort((a, b) => b.version - a.version);
}
