import { Pencil, Send } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { MailPreview } from "@/components/campaigns/mail-preview";
import {
  DeleteTemplateButton,
  DuplicateTemplateButton,
  RenameTemplateDialog,
} from "@/components/templates/template-actions";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { previewTemplate } from "@/lib/templates/preview-template";

import { deleteTemplateAction, duplicateTemplateAction, renameTemplateAction } from "../actions";

export const metadata: Metadata = { title: "Template" };

export default async function TemplatePage({
  params,
}: {
  params: Promise<{ workspaceId: string; templateId: string }>;
}) {
  const { workspaceId, templateId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const preview = await findOrNull(previewTemplate(ctx, actor, templateId));
  if (!preview) notFound();
  const template = { id: templateId, name: preview.name };
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Templates", href: `/w/${workspaceId}/templates` },
          { label: preview.name },
        ]}
        title={preview.name}
        description={preview.blocks ? "Written in blocks." : "Written as HTML."}
      />
      <div className="mb-6 flex flex-wrap gap-2">
        <Button asChild size="sm">
          <Link href={`/w/${workspaceId}/campaigns/new?template=${templateId}`}>
            <Send />
            Use in a new campaign
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link href={`/w/${workspaceId}/templates/${templateId}/edit`}>
            <Pencil />
            Edit
          </Link>
        </Button>
        <RenameTemplateDialog workspaceId={workspaceId} template={template} action={renameTemplateAction} />
        <DuplicateTemplateButton workspaceId={workspaceId} template={template} action={duplicateTemplateAction} />
        <DeleteTemplateButton workspaceId={workspaceId} template={template} action={deleteTemplateAction} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Preview</CardTitle>
          <CardDescription>
            {preview.brandName
              ? `As a campaign of ${preview.brandName} would look, with made-up values and the footer every campaign mail carries.`
              : "The body as saved. Create a brand to see it with a brand's logo and footer."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <MailPreview html={preview.html} subject="Chosen in each campaign" />
        </CardContent>
      </Card>
    </>
  );
}
