import type { Metadata } from "next";

import { ActivityChart } from "@/components/reports/activity-chart";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { viewingBrand } from "@/lib/actor";
import { listBrands } from "@/lib/brands/list-brands";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getActivity } from "@/lib/reports/get-activity";
import { getSummary } from "@/lib/reports/get-summary";
import { INTERVALS, type Interval } from "@/lib/reports/report-window";

export const metadata: Metadata = { title: "Reports" };

/** How far back each interval looks: about a month of days, half a year of weeks, a year of months. */
const SPAN: Record<Interval, (to: Date) => Date> = {
  day: (to) => new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate() - 29)),
  week: (to) => new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate() - 7 * 25)),
  month: (to) => new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 11, 1)),
};
const LABEL: Record<Interval, string> = {
  day: "Last 30 days, by day",
  week: "Last 26 weeks, by week",
  month: "Last 12 months, by month",
};

export default async function ReportsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ interval?: string; brand?: string }>;
}) {
  const { workspaceId } = await params;
  const query = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const brands = await listBrands(ctx, actor);
  const interval: Interval = INTERVALS.includes(query.interval as Interval) ? (query.interval as Interval) : "day";
  // A brand of this workspace narrows the figures as a key locked to it would see them; anything else shows the workspace.
  const brand = brands.find((candidate) => candidate.id === query.brand);
  const scoped = brand ? viewingBrand(actor, brand.id) : actor;
  const to = ctx.clock.now();
  const [summary, activity] = await Promise.all([
    getSummary(ctx, scoped),
    getActivity(ctx, scoped, { from: SPAN[interval](to), to, interval }),
  ]);
  const figures: [string, number][] = [
    ["Contacts", summary.contacts.total],
    ["Subscribed", summary.contacts.subscribed],
    ["Unsubscribed", summary.contacts.unsubscribed],
    ["Bounced", summary.contacts.bounced],
    ["Complained", summary.contacts.complained],
    ["Campaigns sent", summary.campaigns.sent],
    ["Sends this period", summary.sends.used_this_period],
  ];
  const totals: [string, number][] = [
    ["Opens", activity.totals.opens],
    ["Clicks", activity.totals.clicks],
    ["Contacts added", activity.totals.contacts_added],
    ["Unsubscribes", activity.totals.unsubscribes],
    ["Campaigns sent", activity.totals.campaigns_sent],
  ];
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Reports" }]}
        title="Reports"
        description={
          brand
            ? `${brand.name} only: its topics, lists and campaigns, with the workspace's contacts, as a key locked to the brand sees them.`
            : "The whole workspace, from the same counters as /v1/reports."
        }
      />
      <form method="get" className="mb-6 flex flex-wrap items-end gap-3" aria-label="Report options">
        <div className="grid gap-1.5">
          <Label htmlFor="report-interval">Period</Label>
          <NativeSelect id="report-interval" name="interval" defaultValue={interval} className="w-64">
            {INTERVALS.map((value) => (
              <option key={value} value={value}>
                {LABEL[value]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="report-brand">Brand</Label>
          <NativeSelect id="report-brand" name="brand" defaultValue={brand?.id ?? ""} className="w-56">
            <option value="">Every brand</option>
            {brands.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </form>
      <div className="grid gap-6">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" aria-label="Summary">
          {figures.map(([label, value]) => (
            <div key={label} className="rounded-lg border bg-card p-4">
              <dt className="text-sm text-muted-foreground">{label}</dt>
              <dd className="text-2xl font-semibold tabular-nums">{value.toLocaleString("en")}</dd>
            </div>
          ))}
        </dl>
        <Card>
          <CardHeader>
            <CardTitle>Activity</CardTitle>
            <CardDescription>{LABEL[interval]} (UTC).</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <ActivityChart rows={activity.rows} />
            <Table aria-label="Activity totals">
              <TableHeader>
                <TableRow>
                  {totals.map(([label]) => (
                    <TableHead key={label} className="text-right">
                      {label}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                <TableRow>
                  {totals.map(([label, value]) => (
                    <TableCell
                      key={label}
                      className="text-right tabular-nums"
                      data-testid={`activity-${label.toLowerCase().replaceAll(" ", "-")}`}
                    >
                      {value.toLocaleString("en")}
                    </TableCell>
                  ))}
                </TableRow>
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
