import "server-only";

import { eq, sql, type SQL } from "drizzle-orm";

import type { Ctx } from "@/lib/context";
import { segments, type SegmentMode } from "@/lib/db/schema";

import { segmentPredicate } from "./compile-segment";

/**
 * Internal: the condition on the contacts row `contact` (and `subscription`, its subscription to the
 * campaign's topic when the query joined it: SegmentScope) that keeps someone in a campaign's audience
 * by its segment: the rule's predicate when the campaign includes the segment, its complement when
 * it excludes it; null without a segment. The rule as saved now, evaluated now: the snapshot calls
 * this when dispatch starts, the exclusion preview whenever it is shown.
 */
export async function campaignSegmentFilter(
  ctx: Ctx,
  campaign: { workspaceId: string; topicId: string; segmentId: string | null; segmentMode: SegmentMode | null },
  contact: string,
  subscription: string,
  /** `where` when the caller ANDs the condition into its WHERE as it is (the snapshot); see SegmentScope. */
  placement: "where" | "expression",
): Promise<SQL | null> {
  if (!campaign.segmentId) return null;
  const [segment] = await ctx.db
    .select({ rule: segments.rule })
    .from(segments)
    .where(eq(segments.id, campaign.segmentId));
  if (!segment) throw new Error(`the segment ${campaign.segmentId} of a campaign is missing`);
  const predicate = await segmentPredicate(ctx, segment.rule, {
    workspaceId: campaign.workspaceId,
    topicId: campaign.topicId,
    now: ctx.clock.now(),
    contact,
    subscription,
    // Excluded, the rule is under a NOT: no join can be made of it.
    placement: campaign.segmentMode === "exclude" ? "expression" : placement,
  });
  return campaign.segmentMode === "exclude" ? sql`not ${predicate}` : predicate;
}

/** The exclusion preview's reason for whom the segment leaves out. */
export function segmentExclusionReason(mode: SegmentMode | null): "not_in_segment" | "in_excluded_segment" {
  return mode === "exclude" ? "in_excluded_segment" : "not_in_segment";
}
