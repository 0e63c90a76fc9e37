import { dashboardRead } from "@/lib/dashboard/dashboard-route";
import { countSegmentRuleQuery, segmentCountQuerySchema } from "@/lib/segments/segment-count-query";

/** The segment builder's live count: the topic's subscribers the rule being written matches. */
export const GET = dashboardRead(segmentCountQuerySchema, ({ ctx, actor, query }) =>
  countSegmentRuleQuery(ctx, actor, query),
);
