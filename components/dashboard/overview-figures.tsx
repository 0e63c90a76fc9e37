"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { dashboardKeys, dashboardReads, type OverviewCounts } from "@/lib/dashboard/dashboard-reads";

const FIGURES: [label: string, key: keyof OverviewCounts, path: string][] = [
  ["Contacts", "contacts", "/contacts"],
  ["Topics", "topics", "/topics"],
  ["Lists", "lists", "/lists"],
  ["Brands", "brands", "/brands"],
  ["Active API keys", "activeKeys", "/api-keys"],
];

/** The overview's counts, rendered by the server and kept current while the page is open. */
export function OverviewFigures({ workspaceId, initial }: { workspaceId: string; initial: OverviewCounts }) {
  const { data } = useQuery({
    queryKey: dashboardKeys.overview(workspaceId),
    queryFn: ({ signal }) => dashboardReads.overview(workspaceId, signal),
    initialData: initial,
    refetchInterval: 15_000,
  });
  return (
    <dl className="grid grid-cols-2 gap-3" aria-label="Workspace figures">
      {FIGURES.map(([label, key, path]) => (
        <div key={key} className="rounded-lg border bg-card p-4">
          <dt className="text-sm text-muted-foreground">
            <Link className="hover:text-foreground hover:underline" href={`/w/${workspaceId}${path}`}>
              {label}
            </Link>
          </dt>
          <dd className="text-2xl font-semibold tabular-nums">{data[key].toLocaleString("en")}</dd>
        </div>
      ))}
    </dl>
  );
}
