import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { AbTestEditor } from "@/components/campaigns/ab-test-editor";
import { EditCampaignForm } from "@/components/campaigns/campaign-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { getAbTest } from "@/lib/campaigns/ab-test";
import { abTestFormValues } from "@/lib/campaigns/ab-test-schemas";
import { campaignFormOptions } from "@/lib/campaigns/campaign-form-options";
import { canEdit } from "@/lib/campaigns/campaign-status";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { countMissingMergeTagsAction, updateCampaignAction } from "../../actions";
import { removeAbTestAction, saveAbTestAction } from "../ab-test/actions";

export const metadata: Metadata = { title: "Edit campaign" };

export default async function EditCampaignPage({
  params,
}: {
  params: Promise<{ workspaceId: string; campaignId: string }>;
}) {
  const { workspaceId, campaignId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [shown, options, abTest] = await Promise.all([
    findOrNull(showCampaign(ctx, actor, campaignId)),
    campaignFormOptions(ctx, actor),
    getAbTest(ctx, actor, campaignId),
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
        <div className="grid gap-6">
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
          <AbTestEditor
            workspaceId={workspaceId}
            campaignId={campaign.id}
            initial={abTest && abTestFormValues(abTest)}
            defaults={{
              subject: campaign.subject,
              senderName: options.brands.find((brand) => brand.id === campaign.brandId)?.name ?? "",
              html: campaign.html,
            }}
            save={saveAbTestAction}
            remove={removeAbTestAction}
          />
        </div>
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
