"use client";

import { usePolledStatus } from "@/components/dashboard/use-polled-status";
import { dashboardKeys, dashboardReads, type ImportStatusView } from "@/lib/dashboard/dashboard-reads";
import { isApplying } from "@/lib/imports/import-status";

import { ImportCountsView } from "./import-counts";

const POLL_MS = 1_000;

/**
 * The apply's progress and what it has done so far, polled while it runs; when it ends the page
 * renders anew with its outcome.
 */
export function ImportProgress({
  workspaceId,
  importId,
  initial,
}: {
  workspaceId: string;
  importId: string;
  initial: ImportStatusView;
}) {
  const data = usePolledStatus({
    queryKey: dashboardKeys.importStatus(workspaceId, importId),
    read: (signal) => dashboardReads.importStatus(workspaceId, importId, signal),
    initial,
    moving: isApplying,
    everyMs: POLL_MS,
  });

  const { done, total } = data.progress;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className="grid gap-4">
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done.toLocaleString("en")} of ${total.toLocaleString("en")} rows`}
        className="h-3 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-muted-foreground" data-testid="import-progress-text">
        {done.toLocaleString("en")} of {total.toLocaleString("en")} rows ({percent} %).
        {isApplying(data.status) && " You can leave this page: the import carries on."}
      </p>
      {data.applied && <ImportCountsView counts={data.applied} label="Imported so far" />}
    </div>
  );
}
