"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";

import { errorText } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Checkbox, Input, NativeSelect } from "@/components/ui/input";
import {
  AUTOMATION_TRIGGERS,
  createAutomationSchema,
  type AutomationCondition,
  type AutomationTrigger,
  type CreateAutomationInput,
} from "@/lib/automations/automation-schemas";
import type { AutomationFormOptions } from "@/lib/automations/list-automations";
import type { ActionState } from "@/lib/dashboard/action-state";

import { TRIGGER_WORDS } from "./automation-words";
import { ConditionFields } from "./condition-fields";
import { TriggerSettingsFields } from "./trigger-settings-fields";

type Action = (workspaceId: string, input: CreateAutomationInput) => Promise<ActionState<{ automationId: string }>>;

/** Each problem by its field's path (`trigger_settings.list_id`), as the server names them. */
function problemsOf(input: CreateAutomationInput): Record<string, string> {
  const parsed = createAutomationSchema.safeParse(input);
  const problems: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) problems[issue.path.map(String).join(".") || "form"] ??= issue.message;
  return problems;
}

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
  const [trigger, setTrigger] = useState<AutomationTrigger>("topic_confirmed");
  const [settings, setSettings] = useState<Record<string, unknown>>({});
  const [reenter, setReenter] = useState(false);
  const [reentryDays, setReentryDays] = useState("30");
  const [exitCondition, setExitCondition] = useState<AutomationCondition | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const brandId = options.topics.find((topic) => topic.id === topicId)?.brandId;
  // A trigger's list or campaign is of the topic's brand, as a campaign's list is.
  const lists = options.lists.filter((list) => list.brandId === brandId);
  const campaigns = options.campaigns.filter((campaign) => campaign.brandId === brandId);
  const brands = [...new Set(options.topics.map((topic) => topic.brandName))];

  const input = (): CreateAutomationInput => ({
    name,
    topic_id: topicId,
    trigger,
    trigger_settings: settings,
    reentry_after_minutes: reenter ? Math.round(Number(reentryDays) * 1440) : null,
    exit_condition: exitCondition,
  });

  const submit = async () => {
    setMessage(null);
    const problems = problemsOf(input());
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

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Trigger</CardTitle>
          <CardDescription>What makes a person enter. Only subscribers of the topic ever get its mail.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Field id="automation-trigger" label="Starts when" error={errorText(errors.trigger)}>
            {(aria) => (
              <NativeSelect
                {...aria}
                value={trigger}
                onChange={(e) => {
                  setTrigger(e.target.value as AutomationTrigger);
                  setSettings({});
                  setErrors({});
                  setMessage(null);
                }}
              >
                {AUTOMATION_TRIGGERS.map((value) => (
                  <option key={value} value={value}>
                    {TRIGGER_WORDS[value]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <TriggerSettingsFields
            trigger={trigger}
            settings={settings}
            onChange={setSettings}
            lists={lists}
            campaigns={campaigns}
            attributes={options.attributes}
            errors={errors}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Entry and exit</CardTitle>
          <CardDescription>
            Everyone leaves when they unsubscribe from the topic, are suppressed or erased. Add a condition of your own
            if you like.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <label className="flex items-center gap-2 text-sm">
            <Checkbox checked={reenter} onChange={(e) => setReenter(e.target.checked)} />
            People may enter again after their run ended
          </label>
          {reenter && (
            <Field
              id="automation-reentry"
              label="After (days)"
              className="sm:w-48"
              error={errorText(errors.reentry_after_minutes)}
            >
              {(aria) => (
                <Input
                  {...aria}
                  type="number"
                  min={0}
                  value={reentryDays}
                  onChange={(e) => setReentryDays(e.target.value)}
                />
              )}
            </Field>
          )}
          <ConditionFields
            id="exit-condition"
            value={exitCondition}
            onChange={setExitCondition}
            lists={lists}
            errors={errors}
            path="exit_condition"
            label="Exit condition"
            allowNone
          />
        </CardContent>
      </Card>

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
