import type { Metadata } from "next";

import { GuardrailSettingsCard } from "@/components/deliverability/guardrail-settings-card";
import { ProviderPaceCard } from "@/components/deliverability/provider-pace-card";
import { SunsetSettingsCard } from "@/components/deliverability/sunset-settings-card";
import { WorkspaceTimeZoneCard } from "@/components/deliverability/workspace-time-zone-card";
import { PageHeader } from "@/components/ui/page-header";
import { listProviderPaces } from "@/lib/campaigns/provider-pacing";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { DEFAULT_GUARDRAIL_THRESHOLDS } from "@/lib/deliverability/guardrail-schemas";
import { getGuardrailThresholds } from "@/lib/deliverability/guardrail-thresholds";
import { getSunsetSettings } from "@/lib/deliverability/sunset-settings";
import { getWorkspaceTimeZone } from "@/lib/workspaces/workspace-time-zone";

import {
  setGuardrailThresholdsAction,
  setProviderRateAction,
  updateSunsetSettingsAction,
  updateWorkspaceTimeZoneAction,
} from "./actions";

export const metadata: Metadata = { title: "Deliverability" };

/** The workspace's deliverability settings, one card each. */
export default async function DeliverabilityPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [{ thresholds, custom }, sunset, paces, timeZone] = await Promise.all([
    getGuardrailThresholds(ctx, actor),
    getSunsetSettings(ctx, actor),
    listProviderPaces(ctx, actor),
    getWorkspaceTimeZone(ctx, actor),
  ]);
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Deliverability" }]}
        title="Deliverability"
        description="How the service protects your sending reputation: when a campaign stops by itself, how fast each mailbox provider is sent to, and who is left out."
      />
      <div className="grid max-w-3xl gap-6">
        <GuardrailSettingsCard
          workspaceId={workspaceId}
          thresholds={thresholds}
          defaults={DEFAULT_GUARDRAIL_THRESHOLDS}
          custom={custom}
          action={setGuardrailThresholdsAction}
        />
        <ProviderPaceCard workspaceId={workspaceId} paces={paces} action={setProviderRateAction} />
        <SunsetSettingsCard workspaceId={workspaceId} settings={sunset} action={updateSunsetSettingsAction} />
        <WorkspaceTimeZoneCard workspaceId={workspaceId} timeZone={timeZone} action={updateWorkspaceTimeZoneAction} />
      </div>
    </>
  );
}
