import { Filter } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { DeleteSegmentButton } from "@/components/segments/delete-segment-button";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { NativeSelect } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { countSegment } from "@/lib/segments/count-segment";
import { listSegments } from "@/lib/segments/list-segments";
import { segmentBuilderOptions } from "@/lib/segments/segment-builder-options";

import { deleteSegmentAction } from "./actions";

export const metadata: Metadata = { title: "Segments" };

export default async function SegmentsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ topic?: string }>;
}) {
  const { workspaceId } = await params;
  const { topic } = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [segments, options] = await Promise.all([listSegments(ctx, actor), segmentBuilderOptions(ctx, actor)]);
  const chosen = options.topics.find((candidate) => candidate.id === topic) ?? options.topics[0];
  // Each count is capped (CONTACT_COUNT_CAP); a rule that no longer holds (an attribute since removed) shows a dash.
  const counts = chosen
    ? await Promise.all(segments.map((segment) => countSegment(ctx, actor, segment.id, chosen.id).catch(() => null)))
    : segments.map(() => null);
  const create = (
    <Button asChild>
      <Link href={`/w/${workspaceId}/segments/new`}>New segment</Link>
    </Button>
  );
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Segments" }]}
        title="Segments"
        description="Saved rules about your contacts (fields, attributes, lists, how they subscribed, what they opened). A campaign can send only to a segment or leave one out; consent stays on topics."
        actions={create}
      />
      {segments.length === 0 ? (
        <EmptyState icon={<Filter />} title="Create your first segment" action={create}>
          Describe a group by a rule (customers on the pro plan who clicked in the last 30 days, say), see how many of a
          topic&apos;s subscribers match as you write it, then send a campaign only to them or to everyone else.
        </EmptyState>
      ) : (
        <div className="grid gap-4">
          {chosen && (
            <form className="flex flex-wrap items-end gap-2" method="get">
              <label className="grid gap-1 text-sm" htmlFor="segments-topic">
                Count the subscribers of
                <NativeSelect id="segments-topic" name="topic" defaultValue={chosen.id} className="sm:w-64">
                  {options.topics.map((candidate) => (
                    <option key={candidate.id} value={candidate.id}>
                      {candidate.name}
                    </option>
                  ))}
                </NativeSelect>
              </label>
              <Button type="submit" variant="outline">
                Count
              </Button>
            </form>
          )}
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead className="text-right">Matching</TableHead>
                <TableHead className="hidden sm:table-cell">Updated</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {segments.map((segment, i) => {
                const count = counts[i];
                return (
                  <TableRow key={segment.id}>
                    <TableCell>
                      <Link
                        className="font-medium text-primary hover:underline"
                        href={`/w/${workspaceId}/segments/${segment.id}`}
                      >
                        {segment.name}
                      </Link>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {!count ? "—" : `${count.more ? "More than " : ""}${count.count.toLocaleString("en")}`}
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground sm:table-cell">
                      {segment.updatedAt.toISOString().slice(0, 10)}
                    </TableCell>
                    <TableCell className="text-right">
                      <DeleteSegmentButton workspaceId={workspaceId} segment={segment} action={deleteSegmentAction} />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </>
  );
}
