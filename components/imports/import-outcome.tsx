import { Download } from "lucide-react";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { When } from "@/components/ui/when";
import type { ImportCounts, ImportStatus } from "@/lib/db/schema/imports";
import { outcomeDiffersFromDryRun, refusedTotal } from "@/lib/imports/import-outcome";
import { isComplete } from "@/lib/imports/import-status";

import { ImportCountsView } from "./import-counts";

const TITLES: Partial<Record<ImportStatus, string>> = { completed: "Imported", cancelled: "Stopped", failed: "Failed" };

const figure = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/**
 * What an ended apply did: its figures, where people were subscribed and added, the refused rows to
 * download, and the dry run only when the outcome differs from it (contacts changed in between).
 */
export function ImportOutcome({
  status,
  applied,
  checked,
  finishedAt,
  progress,
  topicNames,
  listName,
  refusedRowsHref,
  contactsHref,
  importsHref,
}: {
  status: ImportStatus;
  applied: ImportCounts;
  checked: ImportCounts | null;
  finishedAt: Date | null;
  progress: { done: number; total: number };
  topicNames: string[];
  listName: string | null;
  refusedRowsHref: string;
  contactsHref: string;
  importsHref: string;
}) {
  const imported = applied.created + applied.updated + applied.unchanged;
  const complete = isComplete(status);
  return (
    <Card className="mb-6">
      <CardHeader>
        <CardTitle>{TITLES[status]}</CardTitle>
        <CardDescription>
          {complete ? (
            <>
              Finished <When at={finishedAt} />: {figure(imported, "contact", "contacts")} from{" "}
              {figure(progress.total, "row", "rows")}.
            </>
          ) : (
            <>
              Stopped <When at={finishedAt} /> after {progress.done.toLocaleString("en")} of{" "}
              {figure(progress.total, "row", "rows")}. The contacts imported before that stay; upload the file again to
              import the rest.
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ImportCountsView counts={applied} label="What the import did" />
        {(topicNames.length > 0 || listName) && (
          <p className="text-sm">
            {topicNames.length > 0 && <>Subscribed to {topicNames.join(", ")}, without a confirmation mail. </>}
            {listName && <>Added to the list {listName}.</>}
          </p>
        )}
        {complete && checked && outcomeDiffersFromDryRun(checked, applied) && (
          <p className="text-sm text-muted-foreground" data-testid="outcome-differs">
            The dry run expected {figure(checked.created, "new contact", "new contacts")},{" "}
            {checked.updated.toLocaleString("en")} updated and{" "}
            {figure(refusedTotal(checked), "refused row", "refused rows")}: contacts changed between the check and the
            import (an opt-out is always honoured).
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {refusedTotal(applied) > 0 && (
            <Button asChild variant="outline" size="sm">
              <a href={refusedRowsHref} download>
                <Download />
                Refused rows (CSV)
              </a>
            </Button>
          )}
          {imported > 0 && (
            <Button asChild variant="outline" size="sm">
              <Link href={contactsHref}>See the contacts</Link>
            </Button>
          )}
          <Button asChild variant="ghost" size="sm">
            <Link href={importsHref}>Import another file</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
