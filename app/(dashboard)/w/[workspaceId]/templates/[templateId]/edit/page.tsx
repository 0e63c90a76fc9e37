import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { TemplateForm } from "@/components/templates/template-form";
import { PageHeader } from "@/components/ui/page-header";
import { campaignFormOptions } from "@/lib/campaigns/campaign-form-options";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getTemplateBodyOrThrow } from "@/lib/templates/templates";

import { updateTemplateAction } from "../../actions";

export const metadata: Metadata = { title: "Edit template" };

export default async function EditTemplatePage({
  params,
}: {
  params: Promise<{ workspaceId: string; templateId: string }>;
}) {
  const { workspaceId, templateId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [template, options] = await Promise.all([
    findOrNull(getTemplateBodyOrThrow(ctx, actor, templateId)),
    campaignFormOptions(ctx, actor),
  ]);
  if (!template) notFound();
  const crumbs = [
    { label: "Overview", href: `/w/${workspaceId}` },
    { label: "Templates", href: `/w/${workspaceId}/templates` },
    { label: template.name, href: `/w/${workspaceId}/templates/${templateId}` },
    { label: "Edit" },
  ];
  return (
    <>
      <PageHeader crumbs={crumbs} title={`Edit ${template.name}`} />
      <TemplateForm
        workspaceId={workspaceId}
        attributes={options.attributes}
        initial={{
          templateId,
          name: template.name,
          document: template.document,
          html: template.html,
          text: template.text ?? "",
        }}
        action={updateTemplateAction}
      />
    </>
  );
}
