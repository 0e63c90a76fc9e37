import { ShieldBan } from "lucide-react";
import type { Metadata } from "next";

import { AddSuppressionDialog, LiftSuppressionButton } from "@/components/suppressions/suppression-controls";
import { SuppressionEvidenceDetails } from "@/components/suppressions/suppression-evidence";
import { reasonOf } from "@/components/suppressions/suppression-reasons";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listSuppressions } from "@/lib/suppressions/list-suppressions";
import { suppressionEvidence } from "@/lib/suppressions/suppression-evidence";

import { createSuppressionAction, deleteSuppressionAction } from "./actions";

export const metadata: Metadata = { title: "Suppressions" };

const PAGE_SIZE = 50;

export default async function SuppressionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ after?: string }>;
}) {
  const { workspaceId } = await params;
  const { after } = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const rows = await listSuppressions(ctx, actor, {
    limit: PAGE_SIZE,
    afterId: typeof after === "string" ? after : null,
  });
  const page = rows.slice(0, PAGE_SIZE);
  const evidence = await suppressionEvidence(
    ctx,
    actor,
    page.map((row) => row.evidenceEventId),
  );
  const add = <AddSuppressionDialog workspaceId={workspaceId} action={createSuppressionAction} />;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Suppressions" }]}
        title="Suppressions"
        description="Addresses and domains that are never sent to. Bounces and complaints add them automatically."
        actions={add}
      />
      {page.length === 0 && !after ? (
        <EmptyState icon={<ShieldBan />} title="Nothing is suppressed">
          Permanent bounces and spam complaints land here on their own. Add an address or a whole domain you must never
          mail, such as a competitor or a role account.
        </EmptyState>
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Address or domain</TableHead>
                <TableHead>Reason</TableHead>
                <TableHead>Note</TableHead>
                <TableHead>Evidence</TableHead>
                <TableHead>Since</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.map((row) => {
                const target = row.email ?? `every address at ${row.domain}`;
                const reason = reasonOf(row.reason);
                return (
                  <TableRow key={row.id}>
                    <TableCell className="font-medium">{row.email ?? <>@{row.domain}</>}</TableCell>
                    <TableCell>
                      <Badge variant={reason.variant}>{reason.label}</Badge>
                    </TableCell>
                    <TableCell className="max-w-64 truncate text-muted-foreground">{row.note || "—"}</TableCell>
                    <TableCell>
                      <SuppressionEvidenceDetails
                        evidence={row.evidenceEventId ? (evidence.get(row.evidenceEventId) ?? null) : null}
                      />
                    </TableCell>
                    <TableCell className="text-muted-foreground">{row.createdAt.toISOString().slice(0, 10)}</TableCell>
                    <TableCell className="text-right">
                      {row.reason === "complaint" ? (
                        <span className="text-xs text-muted-foreground">
                          Kept: the recipient reported spam, and only they can take that back
                        </span>
                      ) : (
                        <LiftSuppressionButton
                          workspaceId={workspaceId}
                          suppression={{ id: row.id, target }}
                          action={deleteSuppressionAction}
                        />
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <Pager
            basePath={`/w/${workspaceId}/suppressions`}
            nextAfter={rows.length > PAGE_SIZE ? page.at(-1)!.id : null}
            onFirstPage={!after}
          />
        </>
      )}
    </>
  );
}
