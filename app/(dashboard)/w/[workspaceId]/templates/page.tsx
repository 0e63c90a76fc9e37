import { LayoutTemplate, Send } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listTemplates } from "@/lib/templates/templates";

export const metadata: Metadata = { title: "Templates" };

export default async function TemplatesPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const templates = await listTemplates(ctx, actor);
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Templates" }]}
        title="Templates"
        description="Campaign bodies kept to start new campaigns from. Save one from any campaign with Save as template."
      />
      {templates.length === 0 ? (
        <EmptyState
          icon={<LayoutTemplate />}
          title="No templates yet"
          action={
            <Button asChild>
              <Link href={`/w/${workspaceId}/campaigns`}>
                <Send />
                Go to campaigns
              </Link>
            </Button>
          }
        >
          Open a campaign and choose <strong>Save as template</strong>: its body, in blocks or HTML, is kept here. Then
          start a new campaign from it, with its own subject and audience.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Template</TableHead>
              <TableHead className="hidden sm:table-cell">Written in</TableHead>
              <TableHead className="hidden sm:table-cell">Saved</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {templates.map((template) => (
              <TableRow key={template.id}>
                <TableCell className="max-w-[12rem] truncate sm:max-w-md">
                  <Link
                    className="font-medium text-primary hover:underline"
                    href={`/w/${workspaceId}/templates/${template.id}`}
                  >
                    {template.name}
                  </Link>
                </TableCell>
                <TableCell className="hidden text-muted-foreground sm:table-cell">
                  {template.blocks ? "Blocks" : "HTML"}
                </TableCell>
                <TableCell className="hidden text-muted-foreground sm:table-cell">
                  {template.createdAt.toISOString().slice(0, 10)}
                </TableCell>
                <TableCell className="text-right">
                  <Button asChild variant="outline" size="sm">
                    <Link
                      href={`/w/${workspaceId}/campaigns/new?template=${template.id}`}
                      aria-label={`Use ${template.name} in a new campaign`}
                    >
                      Use<span className="hidden sm:inline"> in a new campaign</span>
                    </Link>
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
