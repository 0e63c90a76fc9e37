import { apiRoute } from "@/lib/api/api-route";
import { conditionalAnswer, makeEtag } from "@/lib/api/etag";
import { getSummary } from "@/lib/reports/get-summary";
import { reportScope } from "@/lib/reports/report-scope";
import { readReportVersions } from "@/lib/reports/report-versions";

// GET /v1/reports/summary — states, not a window: no from/to.
export const GET = apiRoute({ key: "secret", bucket: "reports" }, async ({ ctx, actor, ifNoneMatch }) => {
  const asOf = ctx.clock.now().toISOString();
  const versions = await readReportVersions(ctx, actor);
  const scope = reportScope(actor);
  const etag = makeEtag(["summary", scope, versions.workspace, versions.brands, versions.brandCount, versions.sendsUsed, versions.periodStartedAt]);
  return conditionalAnswer(ifNoneMatch, etag, async () => ({ data: { ...(await getSummary(ctx, actor)), scope }, as_of: asOf }));
});
