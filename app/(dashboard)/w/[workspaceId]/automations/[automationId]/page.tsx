import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { AutomationBuilder } from "@/components/automations/automation-builder";
import { conditionWords, durationWords, STATUS_WORDS, TRIGGER_WORDS } from "@/components/automations/automation-words";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { automationFigures } from "@/lib/automations/automation-figures";
import type { AutomationTrigger, TriggerSettings } from "@/lib/automations/automation-schemas";
import { getAutomationOrThrow, latestVersion } from "@/lib/automations/automations";
import { automationFormOptions, type AutomationFormOptions } from "@/lib/automations/list-automations";
import { findOrNull } from "@/lib/dashboard/find-or-null";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import {
  activateAutomationAction,
  pauseAutomationAction,
  resumeAutomationAction,
  saveAutomationStepsAction,
  updateAutomationSettingsAction,
} from "../actions";

export const metadata: Metadata = { title: "Automation" };

/** The trigger's settings in words, with the names of what they point at. */
function triggerSummary(trigger: AutomationTrigger, settings: TriggerSettings, options: AutomationFormOptions): string {
  const s = settings as Record<string, unknown>;
  const name = (rows: { id: string; name: string }[], id: unknown) =>
    rows.find((row) => row.id === id)?.name ?? "(removed)";
  switch (trigger) {
    case "topic_confirmed":
      return "When a subscription to the topic is confirmed";
    case "list_added":
      return `Added to ${name(options.lists, s.list_id)}`;
    case "attribute_changed":
      return `${String(s.attribute)} changes${s.from ? ` from ${String(s.from)}` : ""}${s.to ? ` to ${String(s.to)}` : ""}`;
    case "date_attribute": {
      const days = Number(s.offset_days ?? 0);
      return `${days === 0 ? "On" : `${Math.abs(days)} days ${days < 0 ? "before" : "after"}`} ${String(s.attribute)}${s.yearly ? ", every year" : ""}`;
    }
    case "link_clicked":
      return `A click in ${name(options.campaigns, s.campaign_id)}${s.url ? ` on ${String(s.url)}` : ""}`;
    case "event":
      return `Event “${String(s.name)}”`;
  }
}

export default async function AutomationPage({
  params,
}: {
  params: Promise<{ workspaceId: string; automationId: string }>;
}) {
  const { workspaceId, automationId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const automation = await findOrNull(getAutomationOrThrow(ctx, actor, automationId));
  if (!automation) notFound();
  const [version, figures, options] = await Promise.all([
    latestVersion(ctx, automationId),
    automationFigures(ctx, actor, automationId),
    automationFormOptions(ctx, actor),
  ]);
  const topic = options.topics.find((candidate) => candidate.id === automation.topicId);
  // A step's list is one of the topic's brand, as the trigger's is.
  const lists = options.lists.filter((list) => list.brandId === topic?.brandId);
  const campaigns = options.campaigns.filter((campaign) => campaign.brandId === topic?.brandId);
  const status = STATUS_WORDS[automation.status];
  const summary = triggerSummary(automation.trigger, automation.triggerSettings, options);
  const details = [
    `Topic: ${topic ? `${topic.name} (${topic.brandName})` : "archived"}`,
    `Starts: ${summary}`,
    automation.reentryAfterMinutes === null
      ? "A person enters once."
      : `A person may enter again ${durationWords(Math.max(automation.reentryAfterMinutes, 1))} after their run ended.`,
    automation.exitCondition
      ? `Exit condition: ${conditionWords(automation.exitCondition, lists)}`
      : "Leaves early only on unsubscribing, suppression or erasure.",
  ];
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Overview", href: `/w/${workspaceId}` },
          { label: "Automations", href: `/w/${workspaceId}/automations` },
          { label: automation.name },
        ]}
        title={automation.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge variant={status.variant} data-testid="automation-status">
              {status.label}
            </Badge>
            <span>
              {topic ? `${topic.name} · ${topic.brandName}` : "Archived topic"} · {TRIGGER_WORDS[automation.trigger]}
            </span>
          </span>
        }
      />
      <AutomationBuilder
        workspaceId={workspaceId}
        automationId={automationId}
        trigger={{ title: TRIGGER_WORDS[automation.trigger], summary, details }}
        settings={{
          trigger: automation.trigger,
          trigger_settings: automation.triggerSettings,
          reentry_after_minutes: automation.reentryAfterMinutes,
          exit_condition: automation.exitCondition,
        }}
        initialSteps={version?.steps ?? []}
        initialFigures={figures}
        options={{ lists, campaigns, attributes: options.attributes }}
        actions={{
          save: saveAutomationStepsAction,
          activate: activateAutomationAction,
          pause: pauseAutomationAction,
          resume: resumeAutomationAction,
          updateSettings: updateAutomationSettingsAction,
        }}
      />
    </>
  );
}
