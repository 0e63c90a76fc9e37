import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { DeleteSegmentButton } from "@/components/segments/delete-segment-button";
import { SegmentBuilder } from "@/components/segments/segment-builder";
import { PageHeader } from "@/components/ui/page-header";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getSegmentOrThrow } from "@/lib/segments/list-segments";
import { segmentBuilderOptions } from "@/lib/segments/segment-builder-options";

import { deleteSegmentAction, updateSegmentAction } from "../actions";

export const metadata: Metadata = { title: "Segment" };

export default async function SegmentPage({ params }: { params: Promise<{ workspaceId: string; segmentId: string }> }) {
  const { workspaceId, segmentId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const segment = await findOrNull(getSegmentOrThrow(ctx, actor, segmentId));
  if (!segment) notFound();
  const options = await segmentBuilderOptions(ctx, actor);
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Segments", href: `/w/${workspaceId}/segments` },
          { label: segment.name },
        ]}
        title={segment.name}
        description="Campaigns that use this segment take its rule as it is when they start sending."
        actions={<DeleteSegmentButton workspaceId={workspaceId} segment={segment} action={deleteSegmentAction} />}
      />
      <SegmentBuilder
        workspaceId={workspaceId}
        segmentId={segment.id}
        {...options}
        initial={{ name: segment.name, rule: segment.rule }}
        action={updateSegmentAction}
      />
    </>
  );
}
