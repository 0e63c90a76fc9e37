import "server-only";

import { and, desc, eq } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { automationEntries, automations, automationVersions, topics } from "@/lib/db/schema";

import type { AutomationStepType, EntryStatus, ExitReason } from "./automation-schemas";
import { placeSteps } from "./step-tree";

export interface ContactAutomationPosition {
  entryId: string;
  automationId: string;
  automationName: string;
  version: number;
  /** The step number the person is at (waiting at, or doing next); null once the entry ended. */
  step: number | null;
  stepType: AutomationStepType | null;
  status: EntryStatus;
  exitReason: ExitReason | null;
  /** When they entered (an active entry) or when the entry ended. */
  since: Date;
}

/**
 * A contact's place in the workspace's automations, newest entry first (a person who entered again
 * has an entry for each time): for their page. A brand-locked actor sees its brand's automations only.
 */
export async function contactAutomations(
  ctx: Ctx,
  actor: Actor,
  contactId: string,
): Promise<ContactAutomationPosition[]> {
  const workspaceId = requireActorWorkspace(actor);
  const rows = await ctx.db
    .select({
      entry: automationEntries,
      name: automations.name,
      brandId: topics.brandId,
      version: automationVersions.number,
      steps: automationVersions.steps,
    })
    .from(automationEntries)
    .innerJoin(automations, eq(automations.id, automationEntries.automationId))
    .innerJoin(topics, eq(topics.id, automations.topicId))
    .innerJoin(automationVersions, eq(automationVersions.id, automationEntries.versionId))
    .where(and(eq(automationEntries.contactId, contactId), eq(automationEntries.workspaceId, workspaceId)))
    .orderBy(desc(automationEntries.enteredAt))
    .limit(100);
  return rows
    .filter((row) => !actor.brandId || row.brandId === actor.brandId)
    .map(({ entry, name, version, steps }) => {
      const active = entry.status === "active";
      const here = active ? placeSteps(steps)[entry.stepIndex] : undefined;
      return {
        entryId: entry.id,
        automationId: entry.automationId,
        automationName: name,
        version,
        step: active ? entry.stepIndex : null,
        stepType: here?.step.type ?? null,
        status: entry.status,
        exitReason: entry.exitReason,
        since: active ? entry.enteredAt : (entry.endedAt ?? entry.enteredAt),
      };
    });
}
