import "server-only";

import { and, desc, eq, lt } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { campaigns, lists, topics, type CampaignStatus } from "@/lib/db/schema";

export interface CampaignListRow {
  id: string;
  name: string;
  subject: string;
  status: CampaignStatus;
  topicName: string;
  listName: string | null;
  recipients: number | null;
  scheduledAt: Date | null;
  sentAt: Date | null;
  createdAt: Date;
}

/** The workspace's campaigns, newest first, keyset-paginated on id; up to `limit + 1` rows. */
export async function listCampaigns(
  ctx: Ctx,
  actor: WorkspaceActor,
  page: { limit: number; afterId: string | null },
): Promise<CampaignListRow[]> {
  return ctx.db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      subject: campaigns.subject,
      status: campaigns.status,
      topicName: topics.name,
      listName: lists.name,
      recipients: campaigns.recipientCount,
      scheduledAt: campaigns.scheduledAt,
      sentAt: campaigns.sentAt,
      createdAt: campaigns.createdAt,
    })
    .from(campaigns)
    .innerJoin(topics, eq(topics.id, campaigns.topicId))
    .leftJoin(lists, eq(lists.id, campaigns.listId))
    .where(and(eq(campaigns.workspaceId, actor.workspaceId), page.afterId ? lt(campaigns.id, page.afterId) : undefined))
    .orderBy(desc(campaigns.id))
    .limit(page.limit + 1);
}
