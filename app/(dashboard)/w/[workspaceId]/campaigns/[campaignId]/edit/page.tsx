import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { EditCampaignForm } from "@/components/campaigns/campaign-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { campaignFormOptions } from "@/lib/campaigns/campaign-form-options";
import { canEdit } from "@/lib/campaigns/campaign-status";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { countMissingMergeTagsAction, updateCampaignAction } from "../../actions";

export const metadata: Metadata = { title: "Edit campaign" };

export default async function EditCampaignPage({
  params,
}: {
  params: Promise<{ workspaceId: string; campaignId: string }>;
}) {
  const { workspaceId, campaignId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [shown, options] = await Promise.all([
    findOrNull(showCampaign(ctx, actor, campaignId)),
    campaignFormOptions(ctx, actor),
  ]);
  if (!shown) notFound();
  const { campaign } = shown;
  const crumbs = [
    { label: "Overview", href: `/w/${workspaceId}` },
    { label: "Campaigns", href: `/w/${workspaceId}/campaigns` },
    { label: campaign.name, href: `/w/${workspaceId}/campaigns/${campaign.id}` },
    { label: "Edit" },
  ];
  return (
    <>
      <PageHeader crumbs={crumbs} title={`Edit ${campaign.name}`} />
      {canEdit(campaign.status) ? (
        <EditCampaignForm
          workspaceId={workspaceId}
          campaignId={campaign.id}
          {...options}
          initial={{
            name: campaign.name,
            subject: campaign.subject,
            brandId: campaign.brandId,
            topicId: campaign.topicId,
            listId: campaign.listId ?? "",
            segmentId: campaign.segmentId ?? "",
            segmentMode: campaign.segmentMode ?? "include",
            previewText: campaign.previewText ?? "",
            html: campaign.document ? "" : campaign.html,
            text: campaign.document ? "" : (campaign.text ?? ""),
            document: campaign.document,
            includeInactive: campaign.includeInactive,
          }}
          action={updateCampaignAction}
          countMissing={countMissingMergeTagsAction}
        />
      ) : (
        <Alert>
          <AlertTitle>This campaign can no longer be edited</AlertTitle>
          <AlertDescription>
            Its sending has started, so its content is fixed. Duplicate it to send a changed copy.
          </AlertDescription>
        </Alert>
      )}
    </>
  );
}
