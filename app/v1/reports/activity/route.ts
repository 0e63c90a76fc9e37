import { z } from "zod";

import { apiRoute } from "@/lib/api/api-route";
import { conditionalAnswer, makeEtag } from "@/lib/api/etag";
import { methodsNotAllowed } from "@/lib/api/methods-not-allowed";
import { activityReport } from "@/lib/api/response-schemas";
import { env } from "@/lib/env";
import { getActivity } from "@/lib/reports/get-activity";
import { reportScope } from "@/lib/reports/report-scope";
import { readReportVersions } from "@/lib/reports/report-versions";
import {
  assertOrdered,
  bucketStarts,
  countableWindow,
  INTERVALS,
  MAX_BUCKETS,
  parseInstant,
} from "@/lib/reports/report-window";

const query = z.strictObject({
  from: z.string().optional(),
  to: z.string().optional(),
  interval: z.enum(INTERVALS).optional(),
});
const DEFAULT_DAYS = 30;

// GET /v1/reports/activity — interval-aligned series; `to` defaults to now, `from` to 30 days before `to`.
export const GET = apiRoute(
  {
    key: "secret",
    bucket: "reports",
    query,
    doc: {
      summary: "Activity series by day, week or month",
      description:
        "Buckets align to the interval (a week starts on Monday); quiet buckets are rows of zeros. `to` defaults to now and `from` to 30 days before it; at most 400 buckets, or the error asks for a coarser interval.",
      responses: { 200: { description: "The series, its totals and the window applied.", schema: activityReport } },
      errors: [
        {
          status: 400,
          code: "validation_failed",
          when: "`from` or `to` is not a date or timestamp, or `from` is not before `to`.",
        },
        {
          status: 400,
          code: "too_many_buckets",
          when: "The window holds more than 400 buckets: use a coarser interval or split the range.",
        },
      ],
      etag: true,
      example: { query: { interval: "week" } },
    },
  },
  async ({ ctx, actor, query: q, ifNoneMatch }) => {
    const now = ctx.clock.now();
    const askedTo = parseInstant(q.to, "to") ?? now;
    const askedFrom = parseInstant(q.from, "from") ?? new Date(askedTo.getTime() - DEFAULT_DAYS * 86_400_000);
    assertOrdered(askedFrom, askedTo);
    const { from, to } = countableWindow(
      askedFrom,
      askedTo,
      new Date(now.getTime() - env().RETENTION_EXACT_ROLLUPS_DAYS * 86_400_000),
    );
    const interval = q.interval ?? "day";
    bucketStarts(from, to, interval); // refuses a window over 400 buckets before anything else, 304 included
    const versions = await readReportVersions(ctx, actor);
    const scope = reportScope(actor);
    const period = { from: from.toISOString(), to: to.toISOString(), interval };
    const etag = makeEtag([
      "activity",
      scope,
      versions.workspaceActivity,
      versions.brandActivity,
      versions.brandCount,
      period,
    ]);
    return conditionalAnswer(ifNoneMatch, etag, async () => {
      const { rows, totals } = await getActivity(ctx, actor, { from, to, interval });
      return {
        data: rows,
        meta: { limit: MAX_BUCKETS, has_more: false, next_cursor: null },
        totals,
        period,
        as_of: now.toISOString(),
        scope,
      };
    });
  },
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");
