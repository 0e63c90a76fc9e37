import "server-only";

import { and, asc, count, eq } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { automationEntries, automationVersions } from "@/lib/db/schema";

import type { AutomationStatus } from "./automation-schemas";
import { getAutomationOrThrow, showAutomation, type AutomationStepFigures } from "./automations";

/** How many people are still walking each version (active entries), oldest version first; versions nobody walks are left out. */
export async function activeEntriesByVersion(
  ctx: Ctx,
  actor: Actor,
  automationId: string,
): Promise<{ version: number; active: number }[]> {
  // The actor's check first: another workspace's automation is not found, its counts never read.
  await getAutomationOrThrow(ctx, actor, automationId);
  return ctx.db
    .select({ version: automationVersions.number, active: count() })
    .from(automationEntries)
    .innerJoin(automationVersions, eq(automationVersions.id, automationEntries.versionId))
    .where(and(eq(automationEntries.automationId, automationId), eq(automationEntries.status, "active")))
    .groupBy(automationVersions.number)
    .orderBy(asc(automationVersions.number));
}

/** The figures the builder shows and polls: no step bodies, only counts. */
export interface AutomationFigures {
  status: AutomationStatus;
  /** The newest version's number, null before any steps were set. */
  version: number | null;
  entered: number;
  active: number;
  completed: number;
  exited: Record<string, number>;
  /** By the step's pre-order number (numberSteps). */
  steps: AutomationStepFigures[];
  /** Active entries on a version older than the newest: they finish the steps they entered. */
  onOlderVersions: number;
}

export async function automationFigures(ctx: Ctx, actor: Actor, automationId: string): Promise<AutomationFigures> {
  const shown = await showAutomation(ctx, actor, automationId);
  const byVersion = await activeEntriesByVersion(ctx, actor, automationId);
  const newest = shown.version?.number ?? null;
  return {
    status: shown.automation.status,
    version: newest,
    entered: shown.entered,
    active: shown.active,
    completed: shown.completed,
    exited: shown.exited,
    steps: shown.steps,
    onOlderVersions: byVersion
      .filter((row) => newest !== null && row.version < newest)
      .reduce((s, r) => s + r.active, 0),
  };
}
