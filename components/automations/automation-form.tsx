"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";

import { errorText } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { createAutomationSchema, type CreateAutomationInput } from "@/lib/automations/automation-schemas";
import type { AutomationFormOptions } from "@/lib/automations/list-automations";
import type { ActionState } from "@/lib/dashboard/action-state";

import {
  AutomationSettingsFields,
  NEW_AUTOMATION_SETTINGS,
  problemsOf,
  settingsOf,
  type SettingsDraft,
} from "./automation-settings-fields";

type Action = (workspaceId: string, input: CreateAutomationInput) => Promise<ActionState<{ automationId: string }>>;

/** A new automation: its name, topic, trigger with its settings, re-entry and exit condition. */
export function AutomationForm({
  workspaceId,
  options,
  action,
}: {
  workspaceId: string;
  options: AutomationFormOptions;
  action: Action;
}) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [topicId, setTopicId] = useState(options.topics[0]!.id);
  const [draft, setDraft] = useState<SettingsDraft>(NEW_AUTOMATION_SETTINGS);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const brandId = options.topics.find((topic) => topic.id === topicId)?.brandId;
  // A trigger's list or campaign is of the topic's brand, as a campaign's list is.
  const lists = options.lists.filter((list) => list.brandId === brandId);
  const campaigns = options.campaigns.filter((campaign) => campaign.brandId === brandId);
  const brands = [...new Set(options.topics.map((topic) => topic.brandName))];

  const input = (): CreateAutomationInput => ({ name, topic_id: topicId, ...settingsOf(draft) });

  const submit = async () => {
    setMessage(null);
    const problems = problemsOf(createAutomationSchema, input());
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setMessage("Check the highlighted fields.");
      return;
    }
    setPending(true);
    const state = await action(workspaceId, input());
    setPending(false);
    if (!state.ok) {
      setErrors(state.fieldErrors);
      setMessage(state.message);
      return;
    }
    toast.success(`${name} created. Add its steps.`);
    router.push(`/w/${workspaceId}/automations/${state.result.automationId}`);
  };

  return (
    <form
      className="grid gap-6"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Card>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field id="automation-name" label="Name" className="content-start" error={errorText(errors.name)}>
            {(aria) => <Input {...aria} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field
            id="automation-topic"
            label="Topic"
            error={errorText(errors.topic_id)}
            hint="Its mails go only to this topic's subscribers, from its brand, with its unsubscribe link."
          >
            {(aria) => (
              <NativeSelect {...aria} value={topicId} onChange={(e) => setTopicId(e.target.value)}>
                {brands.map((brand) => (
                  <optgroup key={brand} label={brand}>
                    {options.topics
                      .filter((topic) => topic.brandName === brand)
                      .map((topic) => (
                        <option key={topic.id} value={topic.id}>
                          {topic.name}
                        </option>
                      ))}
                  </optgroup>
                ))}
              </NativeSelect>
            )}
          </Field>
        </CardContent>
      </Card>

      <AutomationSettingsFields
        value={draft}
        onChange={(next) => {
          if (next.trigger !== draft.trigger) {
            setErrors({});
            setMessage(null);
          }
          setDraft(next);
        }}
        lists={lists}
        campaigns={campaigns}
        attributes={options.attributes}
        errors={errors}
      />

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create and add steps"}
        </Button>
        {message && (
          <p role="alert" className="text-sm text-destructive">
            {message}
          </p>
        )}
      </div>
    </form>
  );
}
