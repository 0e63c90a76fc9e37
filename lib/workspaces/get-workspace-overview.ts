import "server-only";
import { and, count, eq, isNull } from "drizzle-orm";
import { requireActorWorkspace, type Actor } from "@/lib/actor";
import { apiKeys, brands, contacts, lists, topics, workspaceBilling } from "@/lib/db/schema";
import type { Ctx } from "@/lib/context";
import { getWorkspaceOrThrow } from "./get-workspace-or-throw";

/** What the dashboard's overview shows for the actor's workspace. */
export async function getWorkspaceOverview(ctx: Ctx, actor: Actor) {
  const workspaceId = requireActorWorkspace(actor);
  const workspace = await getWorkspaceOrThrow(ctx, workspaceId);
  const countOf = async (table: typeof brands | typeof contacts | typeof lists, extra?: ReturnType<typeof isNull>) => {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(table)
      .where(and(eq(table.workspaceId, workspaceId), extra));
    return row?.n ?? 0;
  };
  const [topicRow] = await ctx.db
    .select({ n: count() })
    .from(topics)
    .where(and(eq(topics.workspaceId, workspaceId), isNull(topics.archivedAt)));
  const [keyRow] = await ctx.db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)));
  const [billing] = await ctx.db.select().from(workspaceBilling).where(eq(workspaceBilling.workspaceId, workspaceId));
  return {
    workspace: { id: workspace.id, name: workspace.name, approved: workspace.approvedAt !== null },
    counts: {
      brands: await countOf(brands),
      topics: topicRow?.n ?? 0,
      lists: await countOf(lists),
      contacts: await countOf(contacts),
      activeKeys: keyRow?.n ?? 0,
    },
    billing: billing ? { stage: billing.stage, trialEndsAt: billing.trialEndsAt, sendsUsed: billing.sendsUsed, sendAllowance: billing.sendAllowance } : null,
  };
}
