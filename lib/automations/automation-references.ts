import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";
import type { Ctx } from "@/lib/context";
import { attributeDefinitions, campaigns, lists, type AttributeType } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { attributeIssues, type SegmentRule } from "@/lib/segments/segment-rule-schema";

import {
  numberSteps,
  type AutomationCondition,
  type AutomationStep,
  type AutomationTrigger,
} from "./automation-schemas";

// An automation names lists, campaigns and attributes in its trigger, its exit condition and its
// steps. A run would act on whatever the id names, so an id another workspace (or, for a brand-locked
// actor, another brand) owns is refused when the automation is saved, not met later by a run.

/** A list or campaign the automation names, with the input field that names it. */
interface Reference {
  kind: "list" | "campaign";
  id: string;
  path: string;
}

/** A custom attribute the automation reads or writes; `type` when only one type will do. */
interface AttributeReference {
  key: string;
  path: string;
  type?: AttributeType;
}

/** What one save of an automation names: the ids, the segment rules and the attributes (for their keys). */
export interface AutomationReferences {
  ids: Reference[];
  rules: { rule: SegmentRule; path: string }[];
  attributes: AttributeReference[];
}

/** What a trigger's settings and an exit condition name, under their input fields. */
export function referencesOfTrigger(
  trigger: AutomationTrigger,
  settings: Record<string, unknown>,
  exitCondition: AutomationCondition | null | undefined,
): AutomationReferences {
  const found: AutomationReferences = { ids: [], rules: [], attributes: [] };
  // A date comes round only for a date attribute; a change can be watched on any.
  if (typeof settings.attribute === "string")
    found.attributes.push({
      key: settings.attribute,
      path: "trigger_settings.attribute",
      ...(trigger === "date_attribute" ? { type: "date" as const } : {}),
    });
  if (typeof settings.list_id === "string")
    found.ids.push({ kind: "list", id: settings.list_id, path: "trigger_settings.list_id" });
  if (typeof settings.campaign_id === "string")
    found.ids.push({ kind: "campaign", id: settings.campaign_id, path: "trigger_settings.campaign_id" });
  if (exitCondition) addCondition(found, exitCondition, "exit_condition");
  return found;
}

/** What the steps name, each under its step's number (`steps.3.list_id`), as merge tags are refused. */
export function referencesOfSteps(steps: readonly AutomationStep[]): AutomationReferences {
  const found: AutomationReferences = { ids: [], rules: [], attributes: [] };
  for (const { index, step } of numberSteps(steps)) {
    if (step.type === "list_add" || step.type === "list_remove")
      found.ids.push({ kind: "list", id: step.list_id, path: `steps.${index}.list_id` });
    if (step.type === "set_attribute") found.attributes.push({ key: step.attribute, path: `steps.${index}.attribute` });
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
 * brand-locked actor sees its brand's only), and every attribute a rule compares, the trigger watches
 * or a step sets is defined (a date trigger's a date). The first
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

  if (references.rules.length === 0 && references.attributes.length === 0) return;
  const definitions = await ctx.db
    .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.workspaceId, workspaceId));
  const types = new Map(definitions.map((d) => [d.key, d.type]));
  for (const { key, path, type } of references.attributes) {
    const defined = types.get(key);
    if (!defined) throw validationFailed(path, `${path}: no attribute ${key} is defined on this workspace.`);
    if (type && defined !== type)
      throw validationFailed(path, `${path}: ${key} is a ${defined} attribute; this needs a ${type} attribute.`);
  }
  for (const { rule, path } of references.rules) {
    const [issue] = attributeIssues(rule, types);
    if (issue) throw validationFailed(`${path}.${issue.path}`, `${path}.${issue.path}: ${issue.message}`);
  }
}
