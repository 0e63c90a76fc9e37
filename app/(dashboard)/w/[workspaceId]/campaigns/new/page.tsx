import type { Metadata } from "next";
import Link from "next/link";
import { Megaphone } from "lucide-react";
import { CampaignForm } from "@/components/campaigns/campaign-form";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { campaignFormOptions } from "@/lib/campaigns/campaign-form-options";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { createCampaignAction } from "../actions";

export const metadata: Metadata = { title: "New campaign" };

export default async function NewCampaignPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const options = await campaignFormOptions(ctx, actor);
  const crumbs = [{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Campaigns", href: `/w/${workspaceId}/campaigns` }, { label: "New campaign" }];
  const firstBrand = options.brands[0];
  return (
    <>
      <PageHeader crumbs={crumbs} title="New campaign" />
      {!firstBrand || options.topics.length === 0 ? (
        <EmptyState
          icon={<Megaphone />}
          title="Create a topic first"
          action={
            <Button asChild>
              <Link href={`/w/${workspaceId}/topics`}>Go to topics</Link>
            </Button>
          }
        >
          A campaign goes to the subscribers of a topic, and a topic belongs to a brand.
        </EmptyState>
      ) : (
        <CampaignForm
          workspaceId={workspaceId}
          {...options}
          initial={{ name: "", subject: "", brandId: options.topics[0]!.brandId, topicId: options.topics[0]!.id, listId: "", previewText: "", html: "", text: "" }}
          action={createCampaignAction}
          submitLabel="Save draft"
        />
      )}
    </>
  );
}
