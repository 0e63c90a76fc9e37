import "server-only";

import { and, count, eq, gt, isNotNull, isNull } from "drizzle-orm";

import type { WorkspaceActor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { apiKeys, brands, reportCampaignCounters, sendingDomains, topics, workspaces } from "@/lib/db/schema";

export type ChecklistStep = "brand" | "domain" | "review" | "topic" | "key" | "campaign";

/**
 * What a new workspace still has to do before it mails for real, in order
 * (spec, point 10: a verified domain, an approved brand and the service's review).
 */
export async function getSetupChecklist(ctx: Ctx, actor: WorkspaceActor): Promise<Record<ChecklistStep, boolean>> {
  const workspaceId = actor.workspaceId;
  const exists = async (query: Promise<{ n: number }[]>) => ((await query)[0]?.n ?? 0) > 0;
  const [brand, approvedBrand, domain, review, topic, key, campaign] = await Promise.all([
    exists(ctx.db.select({ n: count() }).from(brands).where(eq(brands.workspaceId, workspaceId))),
    exists(
      ctx.db
        .select({ n: count() })
        .from(brands)
        .where(and(eq(brands.workspaceId, workspaceId), eq(brands.reviewStatus, "approved"))),
    ),
    exists(
      ctx.db
        .select({ n: count() })
        .from(sendingDomains)
        .where(and(eq(sendingDomains.workspaceId, workspaceId), eq(sendingDomains.state, "ready"))),
    ),
    exists(
      ctx.db
        .select({ n: count() })
        .from(workspaces)
        .where(and(eq(workspaces.id, workspaceId), isNotNull(workspaces.approvedAt))),
    ),
    exists(
      ctx.db
        .select({ n: count() })
        .from(topics)
        .where(and(eq(topics.workspaceId, workspaceId), isNull(topics.archivedAt))),
    ),
    exists(
      ctx.db
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt))),
    ),
    // A first campaign is sent once a mail of it was accepted by the mail carrier, not when one is written or reaches nobody.
    exists(
      ctx.db
        .select({ n: count() })
        .from(reportCampaignCounters)
        .where(and(eq(reportCampaignCounters.workspaceId, workspaceId), gt(reportCampaignCounters.accepted, 0))),
    ),
  ]);
  return { brand, domain, review: review && approvedBrand, topic, key, campaign };
}
