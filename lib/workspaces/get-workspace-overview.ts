import "server-only";

import { and, count, eq, isNull } from "drizzle-orm";

import { requireActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys, brands, lists, reportWorkspaceCounters, topics, workspaceBilling } from "@/lib/db/schema";
import { foldContactCounts } from "@/lib/reports/fold-contact-counts";

import { getWorkspaceOrThrow } from "./get-workspace-or-throw";

/**
 * What the dashboard's overview shows for the actor's workspace, read at once. The contacts figure is
 * the counter the report triggers keep in each writing transaction (GET /v1/reports/summary's total):
 * counting the rows took most of the overview's time once a workspace holds a million contacts.
 */
export async function getWorkspaceOverviewOrThrow(ctx: Ctx, actor: Actor) {
  const workspaceId = requireActorWorkspace(actor);
  await foldContactCounts(ctx, workspaceId);
  const countOf = async (
    table: typeof brands | typeof lists | typeof topics | typeof apiKeys,
    extra?: ReturnType<typeof isNull>,
  ) => {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(table)
      .where(and(eq(table.workspaceId, workspaceId), extra));
    return row?.n ?? 0;
  };
  const [workspace, brandCount, topicCount, listCount, contactCount, keyCount, [billing]] = await Promise.all([
    getWorkspaceOrThrow(ctx, workspaceId),
    countOf(brands),
    countOf(topics, isNull(topics.archivedAt)),
    countOf(lists),
    ctx.db
      .select({ n: reportWorkspaceCounters.contactsTotal })
      .from(reportWorkspaceCounters)
      .where(eq(reportWorkspaceCounters.workspaceId, workspaceId))
      .then(([row]) => row?.n ?? 0),
    countOf(apiKeys, isNull(apiKeys.revokedAt)),
    ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId)),
  ]);
  return {
    workspace: { id: workspace.id, name: workspace.name, approved: workspace.approvedAt !== null },
    counts: { brands: brandCount, topics: topicCount, lists: listCount, contacts: contactCount, activeKeys: keyCount },
    billing: billing
      ? {
          stage: billing.stage,
          trialEndsAt: billing.trialEndsAt,
          sendsUsed: billing.sendsUsed,
          sendAllowance: billing.sendAllowance,
        }
      : null,
  };
}
