import { Megaphone } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { AutomationForm } from "@/components/automations/automation-form";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { automationFormOptions } from "@/lib/automations/list-automations";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { createAutomationAction } from "../actions";

export const metadata: Metadata = { title: "New automation" };

export default async function NewAutomationPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const options = await automationFormOptions(ctx, actor);
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Automations", href: `/w/${workspaceId}/automations` },
          { label: "New automation" },
        ]}
        title="New automation"
        description="What starts it and who may enter. Its mails and waits come next, in the builder."
      />
      {options.topics.length === 0 ? (
        <EmptyState
          icon={<Megaphone />}
          title="Create a topic first"
          action={
            <Button asChild>
              <Link href={`/w/${workspaceId}/topics`}>Go to topics</Link>
            </Button>
          }
        >
          An automation mails the subscribers of one topic, and a topic belongs to a brand.
        </EmptyState>
      ) : (
        <AutomationForm workspaceId={workspaceId} options={options} action={createAutomationAction} />
      )}
    </>
  );
}
