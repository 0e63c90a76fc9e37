import "server-only";

import { and, eq, sql } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { automationSends } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { checkSegmentRule, compileSegment } from "@/lib/segments/compile-segment";

import type { AutomationCondition } from "./automation-schemas";

/** The entry a condition is tested for. */
export interface ConditionEntry {
  id: string;
  workspaceId: string;
  topicId: string;
  contactId: string;
  enteredAt: Date;
}

/**
 * Internal: whether the condition holds for the entry's person now (docs/readings.md, "Automations",
 * "The run"). A segment rule is the segment compiler's (the one rule compiler) on this one contact;
 * opened/clicked read the person's own open or click of that send step's mail (not a machine's);
 * an event is one recorded for the person since they entered, or in the last `within_minutes`.
 */
export async function conditionHolds(
  ctx: Ctx,
  entry: ConditionEntry,
  condition: AutomationCondition,
): Promise<boolean> {
  switch (condition.kind) {
    case "segment":
      return segmentHolds(ctx, entry, condition.rule);
    case "opened":
    case "clicked": {
      const [row] = await ctx.db
        .select({ opened: automationSends.humanOpenedAt, clicked: automationSends.humanClickedAt })
        .from(automationSends)
        .where(and(eq(automationSends.entryId, entry.id), eq(automationSends.stepIndex, condition.step)));
      return Boolean(condition.kind === "opened" ? row?.opened : row?.clicked);
    }
    case "event":
      return eventSeen(ctx, entry, condition.name, condition.within_minutes ?? null);
  }
}

async function segmentHolds(
  ctx: Ctx,
  entry: ConditionEntry,
  rule: Extract<AutomationCondition, { kind: "segment" }>["rule"],
): Promise<boolean> {
  let types;
  try {
    types = await checkSegmentRule(ctx, entry.workspaceId, rule);
  } catch (error) {
    // The rule names a list or attribute deleted since the steps were set: it matches nobody,
    // rather than stopping every run at this step.
    if (error instanceof ApiError) return false;
    throw error;
  }
  const predicate = compileSegment(
    rule,
    { workspaceId: entry.workspaceId, topicId: entry.topicId, now: ctx.clock.now(), contact: "c" },
    types,
  );
  const rows = await ctx.db.execute(
    sql`select 1 from contacts c where c.id = ${entry.contactId} and c.workspace_id = ${entry.workspaceId} and ${predicate}`,
  );
  return rows.length > 0;
}

/**
 * A custom event of this name recorded for the person (contact_events, written by POST /v1/events):
 * since `within` minutes ago, or since they entered.
 */
export async function eventSeen(
  ctx: Ctx,
  entry: Pick<ConditionEntry, "workspaceId" | "contactId" | "enteredAt">,
  name: string,
  withinMinutes: number | null,
): Promise<boolean> {
  const since = withinMinutes === null ? entry.enteredAt : new Date(ctx.clock.now().getTime() - withinMinutes * 60_000);
  const rows = await ctx.db.execute(sql`
    select 1 from contact_events
    where workspace_id = ${entry.workspaceId} and contact_id = ${entry.contactId} and name = ${name}
      and occurred_at >= ${since.toISOString()}::timestamptz
    limit 1`);
  return rows.length > 0;
}
