import { Plus, Send } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { CampaignStatusBadge } from "@/components/campaigns/campaign-status-badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { listCampaigns } from "@/lib/campaigns/list-campaigns";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

export const metadata: Metadata = { title: "Campaigns" };

const PAGE_SIZE = 50;

export default async function CampaignsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ after?: string }>;
}) {
  const { workspaceId } = await params;
  const { after } = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const rows = await listCampaigns(ctx, actor, { limit: PAGE_SIZE, afterId: typeof after === "string" ? after : null });
  const page = rows.slice(0, PAGE_SIZE);
  const create = (
    <Button asChild>
      <Link href={`/w/${workspaceId}/campaigns/new`}>
        <Plus />
        New campaign
      </Link>
    </Button>
  );
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Campaigns" }]}
        title="Campaigns"
        description="One mail to the subscribers of one topic: write it, check who gets it, send it and watch it go."
        actions={create}
      />
      {page.length === 0 && !after ? (
        <EmptyState icon={<Send />} title="Write your first campaign" action={create}>
          A campaign goes to the confirmed subscribers of a topic, or to those of them on a list.
        </EmptyState>
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Campaign</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Audience</TableHead>
                <TableHead className="text-right">Recipients</TableHead>
                <TableHead>Sent or scheduled</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.map((campaign) => (
                <TableRow key={campaign.id}>
                  <TableCell>
                    <Link
                      className="font-medium text-primary hover:underline"
                      href={`/w/${workspaceId}/campaigns/${campaign.id}`}
                    >
                      {campaign.name}
                    </Link>
                    <div className="max-w-md truncate text-xs text-muted-foreground">{campaign.subject}</div>
                  </TableCell>
                  <TableCell>
                    <CampaignStatusBadge status={campaign.status} />
                  </TableCell>
                  <TableCell>
                    {campaign.topicName}
                    {campaign.listName && <span className="text-muted-foreground"> · list {campaign.listName}</span>}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {campaign.recipients?.toLocaleString("en") ?? "—"}
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    <When at={campaign.sentAt ?? campaign.scheduledAt} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pager
            basePath={`/w/${workspaceId}/campaigns`}
            nextAfter={rows.length > PAGE_SIZE ? page.at(-1)!.id : null}
            onFirstPage={!after}
          />
        </>
      )}
    </>
  );
}
