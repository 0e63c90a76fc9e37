import { Download } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { ImportControls } from "@/components/imports/import-controls";
import { ImportCountsView } from "@/components/imports/import-counts";
import { ImportOutcome } from "@/components/imports/import-outcome";
import { ImportProgress } from "@/components/imports/import-progress";
import { ImportStatusBadge } from "@/components/imports/import-status-badge";
import { MappingForm } from "@/components/imports/mapping-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { When } from "@/components/ui/when";
import { dashboardFiles } from "@/lib/dashboard/dashboard-reads";
import { listFilterOptions } from "@/lib/dashboard/list-filter-options";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import type { ImportEncoding } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { autoMap } from "@/lib/imports/column-matching";
import { getImportRowOrThrow, importProgress } from "@/lib/imports/get-import";
import { importFields } from "@/lib/imports/import-fields";
import { refusedTotal } from "@/lib/imports/import-outcome";
import { canEdit, hasEnded, isApplying } from "@/lib/imports/import-status";

import { defineAttributeAction } from "../../../attributes/actions";
import { cancelImportAction, checkImportAction, startImportAction } from "../actions";

export const metadata: Metadata = { title: "Import" };

const DELIMITERS: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab" };
const ENCODING_NAMES: Record<ImportEncoding, string> = {
  "utf-8": "UTF-8",
  latin1: "Latin-1",
  "utf-16le": "UTF-16",
  "utf-16be": "UTF-16",
};

export default async function ImportPage({ params }: { params: Promise<{ workspaceId: string; importId: string }> }) {
  const { workspaceId, importId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const imp = await getImportRowOrThrow(ctx, actor, importId).catch((error) => {
    if (error instanceof ApiError) notFound();
    throw error;
  });
  const [fields, { topics, lists }] = await Promise.all([importFields(ctx, actor), listFilterOptions(ctx, actor)]);

  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Contacts", href: `/w/${workspaceId}/contacts` },
          { label: "Import", href: `/w/${workspaceId}/contacts/imports` },
          { label: imp.fileName },
        ]}
        title={imp.fileName}
        description={`${imp.rowCount.toLocaleString("en")} rows · ${ENCODING_NAMES[imp.encoding]} · ${DELIMITERS[imp.delimiter] ?? "comma"}-separated`}
        actions={<ImportStatusBadge status={imp.status} />}
      />
      <p className="-mt-4 mb-6 text-sm text-muted-foreground">
        Uploaded <When at={imp.createdAt} />
      </p>

      {isApplying(imp.status) && (
        <Card className="mb-6">
          <CardHeader>
            <CardTitle>Importing</CardTitle>
            <CardDescription>Rows are imported in chunks; each counts once, even across a restart.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <ImportProgress
              workspaceId={workspaceId}
              importId={imp.id}
              initial={{
                status: imp.status,
                progress: importProgress(imp),
                checked: imp.checked,
                applied: imp.applied,
              }}
            />
            <ImportControls
              workspaceId={workspaceId}
              importId={imp.id}
              status={imp.status}
              toImport={0}
              start={startImportAction}
              cancel={cancelImportAction}
            />
          </CardContent>
        </Card>
      )}

      {hasEnded(imp.status) && imp.applied && (
        <ImportOutcome
          status={imp.status}
          applied={imp.applied}
          checked={imp.checked}
          finishedAt={imp.finishedAt}
          progress={importProgress(imp)}
          topicNames={topics.filter((topic) => imp.options?.topicIds.includes(topic.id)).map((topic) => topic.name)}
          listName={lists.find((list) => list.id === imp.options?.listId)?.name ?? null}
          refusedRowsHref={dashboardFiles.refusedRows(workspaceId, imp.id)}
          contactsHref={`/w/${workspaceId}/contacts`}
          importsHref={`/w/${workspaceId}/contacts/imports`}
        />
      )}

      {canEdit(imp.status) && imp.checked && (
        <Card className="mb-6">
          <CardHeader>
            <CardTitle>Dry run</CardTitle>
            <CardDescription>
              What importing this file does, checked <When at={imp.checkedAt} />. Nothing has changed yet.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <ImportCountsView counts={imp.checked} label="What the dry run found" />
            <div className="flex flex-wrap items-start gap-2">
              <ImportControls
                workspaceId={workspaceId}
                importId={imp.id}
                status={imp.status}
                toImport={imp.checked.created + imp.checked.updated + imp.checked.unchanged}
                start={startImportAction}
                cancel={cancelImportAction}
              />
              {refusedTotal(imp.checked) > 0 && (
                <Button asChild variant="outline" size="sm">
                  <a href={dashboardFiles.refusedRows(workspaceId, imp.id)} download>
                    <Download />
                    Refused rows (CSV)
                  </a>
                </Button>
              )}
            </div>
          </CardContent>
        </Card>
      )}

      {canEdit(imp.status) && (
        <Card>
          <CardHeader>
            <CardTitle>{imp.checked ? "Change the mapping" : "Map the columns"}</CardTitle>
            <CardDescription>
              Then check the file: a dry run shows every row that would be refused, and why.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <MappingForm
              workspaceId={workspaceId}
              importId={imp.id}
              header={imp.header}
              preview={imp.preview}
              fields={fields}
              mapping={imp.mapping ?? autoMap(imp.header, fields)}
              options={imp.options ?? { policy: "keep", topicIds: [], listId: null }}
              topics={topics}
              lists={lists}
              action={checkImportAction}
              defineAttribute={defineAttributeAction}
            />
          </CardContent>
        </Card>
      )}
      {hasEnded(imp.status) && !imp.applied && (
        <p className="text-sm text-muted-foreground">This import was discarded before anything was imported.</p>
      )}
    </>
  );
}
