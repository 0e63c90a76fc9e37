import { Workflow } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { STATUS_WORDS, TRIGGER_WORDS } from "@/components/automations/automation-words";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listAutomations } from "@/lib/automations/list-automations";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

export const metadata: Metadata = { title: "Automations" };

const figure = (n: number) => n.toLocaleString("en");

export default async function AutomationsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const automations = await listAutomations(ctx, actor);
  const create = (
    <Button asChild>
      <Link href={`/w/${workspaceId}/automations/new`}>New automation</Link>
    </Button>
  );
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Automations" }]}
        title="Automations"
        description="Series of mails each person walks on their own clock, from the moment something happens: a welcome series after a confirmed signup, a follow-up after a click, a reminder before a date."
        actions={create}
      />
      {automations.length === 0 ? (
        <EmptyState icon={<Workflow />} title="Create your first automation" action={create}>
          An automation belongs to one topic and mails only its subscribers. Choose what starts it (a confirmed signup,
          a list, an attribute, a date, a click or an event your systems send), then add mails, waits and branches in
          the builder and activate it. Everyone who enters walks the steps on their own clock.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead className="hidden md:table-cell">Topic</TableHead>
              <TableHead className="hidden lg:table-cell">Trigger</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Entered</TableHead>
              <TableHead className="hidden text-right sm:table-cell">Active</TableHead>
              <TableHead className="hidden text-right sm:table-cell">Completed</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {automations.map((automation) => (
              <TableRow key={automation.id} data-testid="automation-row">
                <TableCell className="max-w-48 truncate sm:max-w-none">
                  <Link
                    className="font-medium text-primary hover:underline"
                    href={`/w/${workspaceId}/automations/${automation.id}`}
                  >
                    {automation.name}
                  </Link>
                </TableCell>
                <TableCell className="hidden md:table-cell">
                  {automation.topicName}
                  <span className="block text-xs text-muted-foreground">{automation.brandName}</span>
                </TableCell>
                <TableCell className="hidden text-muted-foreground lg:table-cell">
                  {TRIGGER_WORDS[automation.trigger]}
                </TableCell>
                <TableCell>
                  <Badge variant={STATUS_WORDS[automation.status].variant}>
                    {STATUS_WORDS[automation.status].label}
                  </Badge>
                </TableCell>
                <TableCell className="text-right tabular-nums">{figure(automation.entered)}</TableCell>
                <TableCell className="hidden text-right tabular-nums sm:table-cell">
                  {figure(automation.active)}
                </TableCell>
                <TableCell className="hidden text-right tabular-nums sm:table-cell">
                  {figure(automation.completed)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
