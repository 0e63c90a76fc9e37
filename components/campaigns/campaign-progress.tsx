"use client";

import { usePolledStatus } from "@/components/dashboard/use-polled-status";
import { MOVING_STATUSES, type CampaignProgress } from "@/lib/campaigns/campaign-progress";
import { notSentReason } from "@/lib/campaigns/not-sent-reasons";
import { dashboardKeys, dashboardReads } from "@/lib/dashboard/dashboard-reads";

const POLL_MS = 2_000;

/**
 * Where the sending stands, polled while the campaign is scheduled or
 * sending; when its status changes the page renders anew (its actions change
 * with it).
 */
export function CampaignProgressBar({
  workspaceId,
  campaignId,
  initial,
}: {
  workspaceId: string;
  campaignId: string;
  initial: CampaignProgress;
}) {
  const data = usePolledStatus({
    queryKey: dashboardKeys.campaignProgress(workspaceId, campaignId),
    read: (signal) => dashboardReads.campaignProgress(workspaceId, campaignId, signal),
    initial,
    moving: (status) => MOVING_STATUSES.includes(status as CampaignProgress["status"]),
    everyMs: POLL_MS,
  });

  const { counts } = data;
  const total = data.recipients ?? 0;
  // A rule leaving someone out (the sandbox, a suppression, a merge tag, the allowance) is not a failure.
  const byRule = data.notSent
    .filter((row) => notSentReason(row.reason).byRule)
    .reduce((sum, row) => sum + row.count, 0);
  const failed = data.notSent.reduce((sum, row) => sum + row.count, 0) - byRule;
  const parts = [
    { label: "Accepted", id: "accepted", value: counts.accepted, className: "bg-emerald-600" },
    { label: "Not sent by a rule", id: "not-sent", value: byRule, className: "bg-amber-500" },
    { label: "Failed", id: "failed", value: failed, className: "bg-destructive" },
    { label: "Cancelled", id: "cancelled", value: counts.cancelled, className: "bg-muted-foreground/50" },
  ];
  const done = parts.reduce((sum, part) => sum + part.value, 0);
  const queued = Math.max(total - done, 0);
  return (
    <div className="grid gap-3">
      <div
        role="progressbar"
        aria-label="Sending progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={
          data.recipients === null
            ? "Preparing the audience"
            : `${done.toLocaleString("en")} of ${total.toLocaleString("en")} handled`
        }
        className="flex h-3 w-full overflow-hidden rounded-full bg-muted"
      >
        {total > 0 &&
          parts.map((part) =>
            part.value > 0 ? (
              <div key={part.label} className={part.className} style={{ width: `${(part.value / total) * 100}%` }} />
            ) : null,
          )}
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Sending figures">
        {[{ label: "Queued", id: "queued", value: queued }, ...parts].map((part) => (
          <div key={part.id}>
            <dt className="text-xs text-muted-foreground">{part.label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`progress-${part.id}`}>
              {part.value.toLocaleString("en")}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
