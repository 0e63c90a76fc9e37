import { Megaphone } from "lucide-react";
import type { Metadata } from "next";

import { NeedsBrand } from "@/components/dashboard/needs-brand";
import { ArchiveTopicButton, CreateTopicDialog, EditTopicDialog } from "@/components/topics/topic-dialogs";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listBrands } from "@/lib/brands/list-brands";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listTopics } from "@/lib/topics/list-topics";

import { archiveTopicAction, createTopicAction, updateTopicAction } from "./actions";

export const metadata: Metadata = { title: "Topics" };

// A workspace has tens of topics, not thousands: one page of the API's size shows them all.
const TOPICS_SHOWN = 500;

export default async function TopicsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [brands, topics] = await Promise.all([
    listBrands(ctx, actor),
    listTopics(ctx, actor, { limit: TOPICS_SHOWN, afterId: null }),
  ]);
  const brandName = new Map(brands.map((brand) => [brand.id, brand.name]));
  const create =
    brands.length > 0 ? (
      <CreateTopicDialog workspaceId={workspaceId} brands={brands} action={createTopicAction} />
    ) : null;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Topics" }]}
        title="Topics"
        description="What people consent to receive. Consent lives on the topic; a campaign goes to one topic's subscribers."
        actions={create}
      />
      {brands.length === 0 ? (
        <NeedsBrand workspaceId={workspaceId} what="Topics" />
      ) : topics.length === 0 ? (
        <EmptyState icon={<Megaphone />} title="Create your first topic">
          A topic is a kind of mail people sign up for, like a weekly newsletter or product news.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Brand</TableHead>
              <TableHead>Confirmation</TableHead>
              <TableHead className="text-right">Subscribers</TableHead>
              <TableHead>Created</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {topics.slice(0, TOPICS_SHOWN).map((topic) => (
              <TableRow key={topic.id}>
                <TableCell>
                  <div className="font-medium">{topic.name}</div>
                  {topic.description && (
                    <div className="max-w-xs truncate text-xs text-muted-foreground">{topic.description}</div>
                  )}
                  <div className="font-mono text-xs text-muted-foreground">{topic.id}</div>
                </TableCell>
                <TableCell>{brandName.get(topic.brandId) ?? "—"}</TableCell>
                <TableCell>
                  {topic.requiresConfirmation ? (
                    <Badge variant="secondary">Double opt-in</Badge>
                  ) : (
                    <Badge variant="warning">Consent asserted</Badge>
                  )}
                </TableCell>
                <TableCell className="text-right tabular-nums">{topic.subscriberCount.toLocaleString("en")}</TableCell>
                <TableCell className="text-muted-foreground">{topic.createdAt.toISOString().slice(0, 10)}</TableCell>
                <TableCell className="text-right">
                  <span className="inline-flex gap-2">
                    <EditTopicDialog workspaceId={workspaceId} topic={topic} action={updateTopicAction} />
                    <ArchiveTopicButton workspaceId={workspaceId} topic={topic} action={archiveTopicAction} />
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
