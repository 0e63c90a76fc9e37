import { apiRoute } from "@/lib/api/api-route";
import { conditionalAnswer, makeEtag } from "@/lib/api/etag";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { summaryReport } from "@/lib/api/response-schemas";
import { getSummary } from "@/lib/reports/get-summary";
import { reportScope } from "@/lib/reports/report-scope";
import { readReportVersions } from "@/lib/reports/report-versions";

// GET /v1/reports/summary — states, not a window: no from/to.
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "reports",
    doc: {
      summary: "Audience, list, topic, campaign and send figures now",
      description: "States, not a window. A brand-scoped key reports its brand only (`scope`).",
      responses: { 200: { description: "The figures.", schema: summaryReport } },
      etag: true,
    },
  },
  async ({ ctx, actor, ifNoneMatch }) => {
    const asOf = ctx.clock.now().toISOString();
    const versions = await readReportVersions(ctx, actor);
    const scope = reportScope(actor);
    const etag = makeEtag([
      "summary",
      scope,
      versions.workspace,
      versions.brands,
      versions.brandCount,
      versions.sendsUsed,
      versions.periodStartedAt,
    ]);
    return conditionalAnswer(ifNoneMatch, etag, async () => ({
      data: { ...(await getSummary(ctx, actor)), scope },
      as_of: asOf,
    }));
  },
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");
