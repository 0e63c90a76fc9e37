import { Megaphone } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { CampaignForm } from "@/components/campaigns/campaign-form";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { campaignFormOptions } from "@/lib/campaigns/campaign-form-options";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getTemplateBodyOrThrow, listTemplates } from "@/lib/templates/templates";

import { countMissingMergeTagsAction, createCampaignAction } from "../actions";

export const metadata: Metadata = { title: "New campaign" };

export default async function NewCampaignPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ template?: string }>;
}) {
  const { workspaceId } = await params;
  const { template: templateId } = await searchParams;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [options, templates, template] = await Promise.all([
    campaignFormOptions(ctx, actor),
    listTemplates(ctx, actor),
    typeof templateId === "string" && templateId ? findOrNull(getTemplateBodyOrThrow(ctx, actor, templateId)) : null,
  ]);
  const crumbs = [
    { label: "Overview", href: `/w/${workspaceId}` },
    { label: "Campaigns", href: `/w/${workspaceId}/campaigns` },
    { label: "New campaign" },
  ];
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
        <div className="grid gap-6">
          {templates.length > 0 && (
            <form method="get" className="flex flex-wrap items-end gap-2" aria-label="Start from a template">
              <div className="grid gap-1.5">
                <Label htmlFor="start-template">Start from</Label>
                <NativeSelect id="start-template" name="template" defaultValue={templateId ?? ""} className="w-72">
                  <option value="">A blank campaign</option>
                  {templates.map((candidate) => (
                    <option key={candidate.id} value={candidate.id}>
                      {candidate.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <Button type="submit" variant="secondary">
                Use
              </Button>
            </form>
          )}
          <CampaignForm
            // A new template gives the form new starting values.
            key={templateId ?? "blank"}
            workspaceId={workspaceId}
            {...options}
            initial={{
              name: "",
              subject: "",
              brandId: options.topics[0]!.brandId,
              topicId: options.topics[0]!.id,
              listId: "",
              segmentId: "",
              segmentMode: "include",
              previewText: "",
              html: template && !template.document ? template.html : "",
              text: template && !template.document ? (template.text ?? "") : "",
              document: template?.document ?? null,
              includeInactive: false,
            }}
            action={createCampaignAction}
            countMissing={countMissingMergeTagsAction}
            submitLabel="Save draft"
          />
        </div>
      )}
    </>
  );
}
