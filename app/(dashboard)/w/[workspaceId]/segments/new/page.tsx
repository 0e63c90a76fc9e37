import type { Metadata } from "next";

import { SegmentBuilder } from "@/components/segments/segment-builder";
import { PageHeader } from "@/components/ui/page-header";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { segmentBuilderOptions } from "@/lib/segments/segment-builder-options";

import { createSegmentAction } from "../actions";

export const metadata: Metadata = { title: "New segment" };

export default async function NewSegmentPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const options = await segmentBuilderOptions(ctx, actor);
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Segments", href: `/w/${workspaceId}/segments` },
          { label: "New segment" },
        ]}
        title="New segment"
        description="Conditions in a group combine as you choose (all or any), and so do the groups."
      />
      <SegmentBuilder
        workspaceId={workspaceId}
        {...options}
        initial={{
          name: "",
          rule: {
            match: "all",
            groups: [{ match: "all", conditions: [{ kind: "field", field: "email", op: "contains", value: "" }] }],
          },
        }}
        action={createSegmentAction}
      />
    </>
  );
}
