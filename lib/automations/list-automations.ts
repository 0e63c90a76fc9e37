import "server-only";

import { and, asc, count, desc, eq, inArray, isNull, type Column } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import {
  attributeDefinitions,
  automationEntries,
  automations,
  brands,
  campaigns,
  lists,
  topics,
} from "@/lib/db/schema";

import type { AutomationStatus, AutomationTrigger } from "./automation-schemas";

export interface AutomationListRow {
  id: string;
  name: string;
  status: AutomationStatus;
  trigger: AutomationTrigger;
  topicName: string;
  brandName: string;
  entered: number;
  active: number;
  completed: number;
}

/** The workspace's automations (a brand-locked actor: its brand's), newest first, with how many entered, are inside and finished. */
export async function listAutomations(ctx: Ctx, actor: WorkspaceActor): Promise<AutomationListRow[]> {
  const rows = await ctx.db
    .select({
      id: automations.id,
      name: automations.name,
      status: automations.status,
      trigger: automations.trigger,
      topicName: topics.name,
      brandName: brands.name,
    })
    .from(automations)
    .innerJoin(topics, eq(topics.id, automations.topicId))
    .innerJoin(brands, eq(brands.id, topics.brandId))
    .where(
      and(
        eq(automations.workspaceId, actor.workspaceId),
        actor.brandId ? eq(topics.brandId, actor.brandId) : undefined,
      ),
    )
    .orderBy(desc(automations.id));
  if (rows.length === 0) return [];
  // One grouped read for every row's figures (automation_entries_figures_idx), not one per automation.
  const figures = await ctx.db
    .select({ automationId: automationEntries.automationId, status: automationEntries.status, n: count() })
    .from(automationEntries)
    .where(
      inArray(
        automationEntries.automationId,
        rows.map((row) => row.id),
      ),
    )
    .groupBy(automationEntries.automationId, automationEntries.status);
  return rows.map((row) => {
    const mine = figures.filter((f) => f.automationId === row.id);
    const of = (status: string) => mine.filter((f) => f.status === status).reduce((sum, f) => sum + f.n, 0);
    return {
      ...row,
      entered: mine.reduce((sum, f) => sum + f.n, 0),
      active: of("active"),
      completed: of("completed"),
    };
  });
}

/** The newest campaigns offered for a link_clicked trigger. */
const CAMPAIGNS_OFFERED = 200;

/**
 * What the automation forms offer: topics with their brand (an automation mails one topic's
 * subscribers, from its brand), lists, campaigns and attributes with their types. Names and ids only.
 */
export async function automationFormOptions(ctx: Ctx, actor: WorkspaceActor) {
  const workspaceId = actor.workspaceId;
  const ofBrand = (column: Column) => (actor.brandId ? eq(column, actor.brandId) : undefined);
  const [topicRows, listRows, campaignRows, attributeRows] = await Promise.all([
    ctx.db
      .select({ id: topics.id, name: topics.name, brandId: topics.brandId, brandName: brands.name })
      .from(topics)
      .innerJoin(brands, eq(brands.id, topics.brandId))
      .where(and(eq(topics.workspaceId, workspaceId), isNull(topics.archivedAt), ofBrand(topics.brandId)))
      .orderBy(asc(brands.name), asc(topics.name)),
    ctx.db
      .select({ id: lists.id, name: lists.name, brandId: lists.brandId })
      .from(lists)
      .where(and(eq(lists.workspaceId, workspaceId), ofBrand(lists.brandId)))
      .orderBy(asc(lists.name)),
    ctx.db
      .select({ id: campaigns.id, name: campaigns.name, brandId: campaigns.brandId })
      .from(campaigns)
      .where(and(eq(campaigns.workspaceId, workspaceId), ofBrand(campaigns.brandId)))
      .orderBy(desc(campaigns.id))
      .limit(CAMPAIGNS_OFFERED),
    ctx.db
      .select({ key: attributeDefinitions.key, type: attributeDefinitions.type })
      .from(attributeDefinitions)
      .where(eq(attributeDefinitions.workspaceId, workspaceId))
      .orderBy(asc(attributeDefinitions.key)),
  ]);
  return { topics: topicRows, lists: listRows, campaigns: campaignRows, attributes: attributeRows };
}
export type AutomationFormOptions = Awaited<ReturnType<typeof automationFormOptions>>;
