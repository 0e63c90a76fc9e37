"use client";

import { usePolledStatus } from "@/components/dashboard/use-polled-status";
import { dashboardKeys, dashboardReads, type ImportStatusView } from "@/lib/dashboard/dashboard-reads";

const POLL_MS = 1_000;

/** The apply's progress, polled while it runs; when it ends the page renders anew with the result. */
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
    moving: (status) => status === "applying",
    everyMs: POLL_MS,
  });

  const { done, total } = data.progress;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className="grid gap-2">
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
        {data.status === "applying" && " You can leave this page: the import carries on."}
      </p>
    </div>
  );
}
