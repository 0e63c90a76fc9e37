import { z } from "zod";

import { apiRoute } from "@/lib/api/api-route";
import { conditionalAnswer, makeEtag } from "@/lib/api/etag";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { toListBody } from "@/lib/api/pagination";
import { campaignReport } from "@/lib/api/response-schemas";
import { campaignRates } from "@/lib/reports/campaign-rates";
import { listCampaignReport, type CampaignReportRow } from "@/lib/reports/list-campaign-report";
import { reportScope } from "@/lib/reports/report-scope";
import { readReportVersions } from "@/lib/reports/report-versions";
import { assertOrdered, parseInstant } from "@/lib/reports/report-window";

const query = z.strictObject({ from: z.string().optional(), to: z.string().optional() });

function serializeRow(row: CampaignReportRow) {
  const { sentAt, ...rest } = row;
  const rates = campaignRates(rest);
  return {
    id: rest.id,
    name: rest.name,
    subject: rest.subject,
    sent_at: sentAt,
    recipients: rest.recipients,
    accepted: rest.accepted,
    delivered: rest.delivered,
    opened: rest.opened,
    clicked: rest.clicked,
    bounced: rest.bounced,
    complained: rest.complained,
    unsubscribed: rest.unsubscribed,
    failed: rest.failed,
    // A rate over a denominator of 0 is 0 here (docs/readings.md, "Rates").
    open_rate: rates.openRate ?? 0,
    click_rate: rates.clickRate ?? 0,
    bounce_rate: rates.bounceRate ?? 0,
    complaint_rate: rates.complaintRate ?? 0,
  };
}

// GET /v1/reports/campaigns — one row per sent campaign, newest first; optional window on send time.
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "reports",
    query,
    paginated: true,
    doc: {
      summary: "One row per sent campaign",
      description:
        "Newest first; drafts are absent. `from` and `to` (exclusive) window the send time; a plain date reads as UTC.",
      responses: { 200: { description: "A page of campaign rows.", schema: campaignReport } },
      errors: [
        {
          status: 400,
          code: "validation_failed",
          when: "`from` or `to` is not a date or timestamp, or `from` is not before `to`.",
        },
      ],
      etag: true,
      example: { query: { from: "2026-01-01" } },
    },
  },
  async ({ ctx, actor, query: q, page, ifNoneMatch }) => {
    const window = { from: parseInstant(q.from, "from"), to: parseInstant(q.to, "to") };
    assertOrdered(window.from, window.to);
    const asOf = ctx.clock.now().toISOString();
    const versions = await readReportVersions(ctx, actor);
    const scope = reportScope(actor);
    const etag = makeEtag([
      "campaigns",
      scope,
      versions.brandCampaigns,
      versions.brandCount,
      window.from?.toISOString() ?? null,
      window.to?.toISOString() ?? null,
      page.limit,
      page.afterId,
    ]);
    return conditionalAnswer(ifNoneMatch, etag, async () => {
      const rows = await listCampaignReport(ctx, actor, window, page);
      return { ...toListBody(rows, page, page.scope, serializeRow), as_of: asOf, scope };
    });
  },
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");
