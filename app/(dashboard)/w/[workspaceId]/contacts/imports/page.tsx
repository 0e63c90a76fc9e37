import type { Metadata } from "next";
import Link from "next/link";

import { ImportStatusBadge } from "@/components/imports/import-status-badge";
import { UploadDropzone } from "@/components/imports/upload-dropzone";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { importProgress, listImports } from "@/lib/imports/get-import";
import { isApplying } from "@/lib/imports/import-status";

export const metadata: Metadata = { title: "Import contacts" };

const refusedOf = (counts: { refused: Record<string, number | undefined> } | null) =>
  counts ? Object.values(counts.refused).reduce<number>((sum, n) => sum + (n ?? 0), 0) : null;

export default async function ImportsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const history = await listImports(ctx, actor);
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Contacts", href: `/w/${workspaceId}/contacts` },
          { label: "Import" },
        ]}
        title="Import contacts"
        description="Bring a spreadsheet of people who agreed to hear from you. You see what it will do before anything changes."
      />
      <Card>
        <CardHeader>
          <CardTitle>Upload a file</CardTitle>
          <CardDescription>
            Export your list as CSV from your spreadsheet or your previous provider; it needs a column of email
            addresses.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <UploadDropzone workspaceId={workspaceId} />
        </CardContent>
      </Card>
      <section className="mt-8 grid gap-3" aria-labelledby="history-title">
        <h2 id="history-title" className="text-lg font-semibold">
          Earlier imports
        </h2>
        {history.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            None yet: your imports will be listed here, with what each one did and the rows it refused.
          </p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>File</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-right">Rows</TableHead>
                <TableHead className="text-right">New</TableHead>
                <TableHead className="text-right">Updated</TableHead>
                <TableHead className="text-right">Refused</TableHead>
                <TableHead>By</TableHead>
                <TableHead>When</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {history.map((imp) => {
                const counts = imp.applied ?? imp.checked;
                return (
                  <TableRow key={imp.id}>
                    <TableCell>
                      <Link
                        className="font-medium text-primary hover:underline"
                        href={`/w/${workspaceId}/contacts/imports/${imp.id}`}
                      >
                        {imp.fileName}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <ImportStatusBadge status={imp.status} />
                      {isApplying(imp.status) && (
                        <span className="ml-2 text-xs text-muted-foreground tabular-nums">
                          {Math.round((importProgress(imp).done / Math.max(1, imp.rowCount)) * 100)} %
                        </span>
                      )}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{imp.rowCount.toLocaleString("en")}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {counts?.created.toLocaleString("en") ?? "—"}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {counts?.updated.toLocaleString("en") ?? "—"}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {refusedOf(counts)?.toLocaleString("en") ?? "—"}
                    </TableCell>
                    <TableCell className="text-muted-foreground">{imp.createdBy ?? "Operator"}</TableCell>
                    <TableCell className="text-muted-foreground">
                      <When at={imp.createdAt} />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </section>
    </>
  );
}
