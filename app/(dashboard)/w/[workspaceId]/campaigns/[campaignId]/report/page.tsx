import { BarChart3 } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { AbTestResults } from "@/components/campaigns/ab-test-results";
import { EngagementChart } from "@/components/campaigns/engagement-chart";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { getAbTestView } from "@/lib/campaigns/ab-test-view";
import { notSentReason } from "@/lib/campaigns/not-sent-reasons";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getCampaignReportOrThrow } from "@/lib/reports/get-campaign-report";

export const metadata: Metadata = { title: "Campaign report" };

export default async function CampaignReportPage({
  params,
}: {
  params: Promise<{ workspaceId: string; campaignId: string }>;
}) {
  const { workspaceId, campaignId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const shown = await findOrNull(showCampaign(ctx, actor, campaignId));
  if (!shown) notFound();
  const report = await getCampaignReportOrThrow(ctx, actor, campaignId);
  const { campaign, skipped } = shown;
  const crumbs = [
    { label: "Overview", href: `/w/${workspaceId}` },
    { label: "Campaigns", href: `/w/${workspaceId}/campaigns` },
    { label: campaign.name, href: `/w/${workspaceId}/campaigns/${campaign.id}` },
    { label: "Report" },
  ];
  if (!report) {
    return (
      <>
        <PageHeader crumbs={crumbs} title={`${campaign.name}: report`} />
        <EmptyState icon={<BarChart3 />} title="No report yet">
          The report starts when the campaign starts sending.
        </EmptyState>
      </>
    );
  }
  const { row } = report;
  const abTest = await getAbTestView(ctx, actor, campaign);
  const figures: [string, number, string?][] = [
    ["Recipients", row.recipients],
    ["Accepted", row.accepted],
    ["Delivered", row.delivered],
    // Opens and clicks are rated over delivered mail, which not every transport reports.
    ["Opened", row.opened, rateLine(row.openRate, "none delivered")],
    ["Clicked", row.clicked, rateLine(row.clickRate, "none delivered")],
    ["Bounced", row.bounced, rateLine(row.bounceRate, "no recipients")],
    ["Complained", row.complained, rateLine(row.complaintRate, "no recipients")],
    ["Unsubscribed", row.unsubscribed],
    ["Failed", row.failed],
  ];
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title={`${campaign.name}: report`}
        description={
          <span>
            Sending started <When at={row.sentAt} />. Opens and clicks count each person once; an open is weak evidence
            (image proxies load the pixel too).
          </span>
        }
      />
      <div className="grid gap-6">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Campaign figures">
          {figures.map(([label, value, rate]) => (
            <div key={label} className="rounded-lg border bg-card p-4">
              <dt className="text-sm text-muted-foreground">{label}</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid={`report-${label.toLowerCase()}`}>
                {value.toLocaleString("en")}
              </dd>
              {rate && (
                <dd
                  className="text-sm text-muted-foreground tabular-nums"
                  data-testid={`report-${label.toLowerCase()}-rate`}
                >
                  {rate}
                </dd>
              )}
            </div>
          ))}
        </dl>
        {abTest && <AbTestResults workspaceId={workspaceId} campaignId={campaign.id} test={abTest} />}
        <Card>
          <CardHeader>
            <CardTitle>Opens and clicks over time</CardTitle>
            <CardDescription>Each person&apos;s first open and first click, per hour (UTC).</CardDescription>
          </CardHeader>
          <CardContent>
            {report.timeline.length === 0 ? (
              <p className="text-sm text-muted-foreground">Nobody has opened or clicked yet.</p>
            ) : (
              <EngagementChart timeline={report.timeline} />
            )}
          </CardContent>
        </Card>
        <div className="grid gap-6 lg:grid-cols-2">
          <Breakdown
            title="Top links"
            empty="No clicks yet."
            label="Link"
            rows={report.topLinks.map((link) => ({ name: link.url, value: link.clicks, extra: link.people }))}
            extraLabel="People"
          />
          <Breakdown
            title="Devices"
            empty="No clicks yet."
            label="Device"
            rows={report.devices.map((device) => ({ name: device.name, value: device.clicks }))}
          />
          <Breakdown
            title="Mail clients and browsers"
            empty="No clicks yet."
            label="Client"
            rows={report.clients.map((client) => ({ name: client.name, value: client.clicks }))}
          />
          <Breakdown
            title="Countries"
            empty="No clicks yet."
            label="Country"
            rows={report.countries.map((country) => ({ name: country.name, value: country.clicks }))}
          />
          <Breakdown
            title="Bounces by type"
            empty="No bounces."
            label="Type"
            valueLabel="Bounces"
            rows={report.bounces.map((bounce) => ({ name: bounce.type, value: bounce.count }))}
          />
          <Breakdown
            title="Not sent"
            empty="Everyone was sent the mail."
            label="Recipient"
            valueLabel="Reason"
            rows={skipped.slice(0, 100).map((send) => ({ name: send.email, value: notSentReason(send.reason).label }))}
          />
        </div>
      </div>
    </>
  );
}

/** A figure's rate, or why there is none (its denominator is 0). */
function rateLine(rate: number | null, whyNone: string): string {
  return rate === null ? `no rate: ${whyNone}` : `${rate} %`;
}

function Breakdown({
  title,
  empty,
  label,
  valueLabel = "Clicks",
  extraLabel,
  rows,
}: {
  title: string;
  empty: string;
  label: string;
  valueLabel?: string;
  extraLabel?: string;
  rows: { name: string; value: number | string; extra?: number }[];
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <Table aria-label={title}>
            <TableHeader>
              <TableRow>
                <TableHead>{label}</TableHead>
                <TableHead className="text-right">{valueLabel}</TableHead>
                {extraLabel && <TableHead className="text-right">{extraLabel}</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.name}>
                  <TableCell className="max-w-xs truncate" title={row.name}>
                    {row.name}
                  </TableCell>
                  {typeof row.value === "number" ? (
                    <TableCell className="text-right tabular-nums">{row.value.toLocaleString("en")}</TableCell>
                  ) : (
                    // A reason, in words: it wraps rather than running out of the card.
                    <TableCell className="whitespace-normal text-right">{row.value}</TableCell>
                  )}
                  {extraLabel && (
                    <TableCell className="text-right tabular-nums">{row.extra?.toLocaleString("en")}</TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
