"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { toast } from "sonner";

import { usePolledStatus } from "@/components/dashboard/use-polled-status";
import {
  bulkActionFailed,
  bulkActionRunning,
  bulkActionWords,
  type BulkActionView,
} from "@/lib/contacts/bulk-action-view";
import { dashboardKeys, dashboardReads } from "@/lib/dashboard/dashboard-reads";

const POLL_MS = 1_000;

const count = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "contact" : "contacts"}`;

/**
 * A bulk action's progress, polled while it runs. When it ends, it says so once, and the table
 * and the counts are read afresh.
 */
export function BulkActionProgress({ workspaceId, initial }: { workspaceId: string; initial: BulkActionView }) {
  const queryClient = useQueryClient();
  const data = usePolledStatus({
    queryKey: dashboardKeys.bulkAction(workspaceId, initial.id),
    read: (signal) => dashboardReads.bulkAction(workspaceId, initial.id, signal),
    initial,
    moving: bulkActionRunning,
    everyMs: POLL_MS,
  });
  const words = bulkActionWords(data.kind);
  const announced = useRef(!bulkActionRunning(initial.status));
  useEffect(() => {
    if (announced.current || bulkActionRunning(data.status)) return;
    announced.current = true;
    if (bulkActionFailed(data.status)) toast.error(`${words.running} stopped: ${data.error ?? "the run failed"}.`);
    else toast.success(`${words.done}: ${count(data.done)}.`);
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.workspace(workspaceId) });
  }, [data, words, queryClient, workspaceId]);

  if (!bulkActionRunning(data.status)) return null;
  const total = data.total ?? 0;
  const percent = total > 0 ? Math.round((data.done / total) * 100) : 0;
  return (
    <div className="mb-4 grid gap-2 rounded-md border p-3" data-testid="bulk-action-progress">
      <p className="text-sm">
        {words.running}:{" "}
        {data.total === null ? "counting…" : `${data.done.toLocaleString("en")} of ${count(total)} (${percent} %)`}
      </p>
      <div
        role="progressbar"
        aria-label={words.running}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={data.done}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground">It runs in the background: you can leave this page.</p>
    </div>
  );
}
