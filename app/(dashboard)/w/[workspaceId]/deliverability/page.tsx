import type { Metadata } from "next";

import { SunsetSettingsCard } from "@/components/deliverability/sunset-settings-card";
import { PageHeader } from "@/components/ui/page-header";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { getSunsetSettings } from "@/lib/deliverability/sunset-settings";

import { updateSunsetSettingsAction } from "./actions";

export const metadata: Metadata = { title: "Deliverability" };

export default async function DeliverabilityPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const settings = await getSunsetSettings(ctx, actor);
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Deliverability" }]}
        title="Deliverability"
        description="Rules that keep your mail welcome in inboxes."
      />
      <div className="grid max-w-3xl gap-6">
        <SunsetSettingsCard workspaceId={workspaceId} settings={settings} action={updateSunsetSettingsAction} />
      </div>
    </>
  );
}
