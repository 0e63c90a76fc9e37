import { Workflow } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { OperatorStepButton } from "@/components/operator/operator-step-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { defaultCtx } from "@/lib/context";
import { requireOperator } from "@/lib/operator/operator-session";
import { listWorkflowRuns, RUN_STATES, type RunState } from "@/lib/operator/workflow-runs";
import { workflowsAreEmbedded } from "@/lib/runtime/workflow-mode";

import { retryWorkflowRunAction } from "./actions";

export const metadata: Metadata = { title: "Workflow runs (operator)" };

const PAGE = 50;
const BADGES: Record<RunState, "success" | "warning" | "destructive" | "secondary"> = {
  running: "warning",
  sleeping: "secondary",
  due: "warning",
  failed: "destructive",
  completed: "success",
  cancelled: "secondary",
};

/** The embedded executor's runs: what runs now, what sleeps until when, what failed and why, with a retry. */
export default async function OperatorWorkflowsPage({
  searchParams,
}: {
  searchParams: Promise<{ state?: string; before?: string }>;
}) {
  await requireOperator();
  const query = await searchParams;
  const state = RUN_STATES.includes(query.state as RunState) ? (query.state as RunState) : undefined;
  const before = typeof query.before === "string" && /^run_[0-9a-z]+$/.test(query.before) ? query.before : undefined;
  const runs = await listWorkflowRuns(defaultCtx(), { state, limit: PAGE, before });
  const link = (next: { state?: RunState; before?: string }) =>
    `/operator/workflows?${new URLSearchParams(Object.entries(next).filter(([, value]) => value) as [string, string][])}`;
  return (
    <main className="mx-auto grid max-w-6xl gap-6 px-6 py-8">
      <PageHeader
        crumbs={[{ label: "Reviews", href: "/operator" }, { label: "Workflow runs" }]}
        title="Workflow runs"
        description={
          workflowsAreEmbedded()
            ? "Background work run inside the app: confirmations, dispatch, webhook deliveries, imports, the billing ladder. A failed run goes again from its failed step once its cause is fixed."
            : "Workflows run on an Inngest server: see its dashboard. This list shows only runs the embedded executor kept before."
        }
        actions={
          <Button asChild variant="outline">
            <Link href="/operator/billing">Billing</Link>
          </Button>
        }
      />
      <nav aria-label="Run state" className="flex flex-wrap gap-1">
        {[undefined, ...RUN_STATES].map((option) => (
          <Link
            key={option ?? "all"}
            href={link({ state: option })}
            aria-current={option === state ? "page" : undefined}
            className={cn(
              "rounded-md border px-3 py-1 text-sm hover:bg-accent",
              option === state && "bg-accent font-medium",
            )}
          >
            {option ?? "all"}
          </Link>
        ))}
      </nav>
      {runs.length === 0 ? (
        <EmptyState icon={<Workflow />} title={state ? `No ${state} run` : "No run yet"}>
          {state === "failed" ? "Nothing needs a retry." : "Runs appear here as the service works."}
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Function</TableHead>
              <TableHead>State</TableHead>
              <TableHead>Steps</TableHead>
              <TableHead>Started</TableHead>
              <TableHead>Next / last</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {runs.map((run) => (
              <TableRow key={run.id} data-testid={`run-${run.id}`}>
                <TableCell className="max-w-md align-top">
                  <div className="font-medium">{run.functionId}</div>
                  <div className="truncate text-xs text-muted-foreground" title={JSON.stringify(run.eventData)}>
                    {run.eventName} · {run.id}
                  </div>
                  {run.error && <p className="mt-1 line-clamp-3 text-xs break-words text-destructive">{run.error}</p>}
                </TableCell>
                <TableCell className="align-top">
                  <Badge variant={BADGES[run.state]}>{run.state}</Badge>
                  {run.attempt > 0 && (
                    <div className="mt-1 text-xs text-muted-foreground">attempt {run.attempt + 1}</div>
                  )}
                </TableCell>
                <TableCell className="align-top tabular-nums">{run.steps}</TableCell>
                <TableCell className="align-top text-sm">
                  <When at={run.createdAt} />
                </TableCell>
                <TableCell className="align-top text-sm">
                  {run.state === "sleeping" || run.state === "due" ? (
                    <When at={run.wakeAt} />
                  ) : (
                    <When at={run.updatedAt} />
                  )}
                </TableCell>
                <TableCell className="text-right align-top">
                  {run.state === "failed" && (
                    <OperatorStepButton
                      targetId={run.id}
                      input={{}}
                      action={retryWorkflowRunAction}
                      label="Retry"
                      title={`Retry ${run.functionId}?`}
                      description="The steps it finished stay done; the step that failed runs again with fresh attempts. Retry once the cause of the error is fixed."
                      done="Run retried."
                    />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {runs.length === PAGE && (
        <div>
          <Button asChild variant="outline">
            <Link href={link({ state, before: runs.at(-1)!.id })}>Older runs</Link>
          </Button>
        </div>
      )}
    </main>
  );
}
