import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, campaigns, lists } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { attributeIssues, type SegmentRule } from "@/lib/segments/segment-rule-schema";

import { numberSteps, type AutomationCondition, type AutomationStep } from "./automation-schemas";

// An automation names lists, campaigns and attributes in its trigger, its exit condition and its
// steps. A run would act on whatever the id names, so an id another workspace (or, for a brand-locked
// actor, another brand) owns is refused when the automation is saved, not met later by a run.

/** A list or campaign the automation names, with the input field that names it. */
interface Reference {
  kind: "list" | "campaign";
  id: string;
  path: string;
}

/** What one save of an automation names: the ids, and the segment rules (for their attribute keys). */
export interface AutomationReferences {
  ids: Reference[];
  rules: { rule: SegmentRule; path: string }[];
}

/** What a trigger's settings and an exit condition name, under their input fields. */
export function referencesOfTrigger(
  settings: Record<string, unknown>,
  exitCondition: AutomationCondition | null | undefined,
): AutomationReferences {
  const found: AutomationReferences = { ids: [], rules: [] };
  if (typeof settings.list_id === "string")
    found.ids.push({ kind: "list", id: settings.list_id, path: "trigger_settings.list_id" });
  if (typeof settings.campaign_id === "string")
    found.ids.push({ kind: "campaign", id: settings.campaign_id, path: "trigger_settings.campaign_id" });
  if (exitCondition) addCondition(found, exitCondition, "exit_condition");
  return found;
}

/** What the steps name, each under its step's number (`steps.3.list_id`), as merge tags are refused. */
export function referencesOfSteps(steps: readonly AutomationStep[]): AutomationReferences {
  const found: AutomationReferences = { ids: [], rules: [] };
  for (const { index, step } of numberSteps(steps)) {
    if (step.type === "list_add" || step.type === "list_remove")
      found.ids.push({ kind: "list", id: step.list_id, path: `steps.${index}.list_id` });
    if (step.type === "branch") addCondition(found, step.condition, `steps.${index}.condition`);
  }
  return found;
}

function addCondition(found: AutomationReferences, condition: AutomationCondition, path: string): void {
  if (condition.kind !== "segment") return;
  found.rules.push({ rule: condition.rule, path });
  condition.rule.groups.forEach((group, g) =>
    group.conditions.forEach((c, i) => {
      const at = `${path}.rule.groups.${g}.conditions.${i}`;
      if (c.kind === "list") found.ids.push({ kind: "list", id: c.listId, path: `${at}.listId` });
      if (c.kind === "engagement" && c.campaignId)
        found.ids.push({ kind: "campaign", id: c.campaignId, path: `${at}.campaignId` });
    }),
  );
}

/**
 * Internal: every list and campaign named is the workspace's and within the actor's brand (a
 * brand-locked actor sees its brand's only), and every attribute a rule compares is defined. The first
 * that is not is a `validation_failed` naming its field; the caller has written nothing yet.
 */
export async function assertReferencesReachable(
  ctx: Ctx,
  actor: Pick<Actor, "brandId">,
  workspaceId: string,
  references: AutomationReferences,
): Promise<void> {
  const reachable = new Set<string>();
  const listIds = references.ids.filter((r) => r.kind === "list").map((r) => r.id);
  const campaignIds = references.ids.filter((r) => r.kind === "campaign").map((r) => r.id);
  const listRows =
    listIds.length === 0
      ? []
      : await ctx.db
          .select({ id: lists.id, brandId: lists.brandId })
          .from(lists)
          .where(and(eq(lists.workspaceId, workspaceId), inArray(lists.id, listIds)));
  const campaignRows =
    campaignIds.length === 0
      ? []
      : await ctx.db
          .select({ id: campaigns.id, brandId: campaigns.brandId })
          .from(campaigns)
          .where(and(eq(campaigns.workspaceId, workspaceId), inArray(campaigns.id, campaignIds)));
  for (const row of listRows) if (keyReachesBrand(actor, row.brandId)) reachable.add(`list:${row.id}`);
  for (const row of campaignRows) if (keyReachesBrand(actor, row.brandId)) reachable.add(`campaign:${row.id}`);
  const unknown = references.ids.find((r) => !reachable.has(`${r.kind}:${r.id}`));
  if (unknown) throw validationFailed(unknown.path, `${unknown.path}: no ${unknown.kind} ${unknown.id}.`);

  if (references.rules.length === 0) return;
  const definitions = await ctx.db
    .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, workspaceId));
  const types = new Map(definitions.map((d) => [d.key, d.type]));
  for (const { rule, path } of references.rules) {
    const [issue] = attributeIssues(rule, types);
    if (issue) throw validationFailed(`${path}.${issue.path}`, `${path}.${issue.path}: ${issue.message}`);
  }
}
