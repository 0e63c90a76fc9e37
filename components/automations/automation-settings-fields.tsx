"use client";

import type { z } from "zod";

import { errorText } from "@/components/forms/use-action-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Checkbox, Input, NativeSelect } from "@/components/ui/input";
import {
  AUTOMATION_TRIGGERS,
  type AutomationCondition,
  type AutomationSettingsInput,
  type AutomationTrigger,
} from "@/lib/automations/automation-schemas";
import type { AutomationFormOptions } from "@/lib/automations/list-automations";

import { TRIGGER_WORDS } from "./automation-words";
import { ConditionFields } from "./condition-fields";
import { TriggerSettingsFields } from "./trigger-settings-fields";

const DAY_MINUTES = 1440;

/** The trigger, re-entry and exit condition as the form holds them (re-entry in days, as typed). */
export interface SettingsDraft {
  trigger: AutomationTrigger;
  settings: Record<string, unknown>;
  reenter: boolean;
  reentryDays: string;
  exitCondition: AutomationCondition | null;
}

export const NEW_AUTOMATION_SETTINGS: SettingsDraft = {
  trigger: "topic_confirmed",
  settings: {},
  reenter: false,
  reentryDays: "30",
  exitCondition: null,
};

/** The form's draft of an automation's saved settings. */
export function draftOf(saved: AutomationSettingsInput): SettingsDraft {
  const minutes = saved.reentry_after_minutes ?? null;
  return {
    trigger: saved.trigger ?? "topic_confirmed",
    settings: saved.trigger_settings ?? {},
    reenter: minutes !== null,
    // Four decimals are within a tenth of a minute, so an untouched value saves as it was.
    reentryDays:
      minutes === null ? NEW_AUTOMATION_SETTINGS.reentryDays : String(Number((minutes / DAY_MINUTES).toFixed(4))),
    exitCondition: saved.exit_condition ?? null,
  };
}

/** The draft as the server takes it. */
export function settingsOf(draft: SettingsDraft): AutomationSettingsInput {
  return {
    trigger: draft.trigger,
    trigger_settings: draft.settings,
    reentry_after_minutes: draft.reenter ? Math.round(Number(draft.reentryDays) * DAY_MINUTES) : null,
    exit_condition: draft.exitCondition,
  };
}

/** The browser's own check, with the server's schema: each problem by its field's path (`trigger_settings.list_id`), as the server names them. */
export function problemsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const parsed = schema.safeParse(input);
  const problems: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) problems[issue.path.map(String).join(".") || "form"] ??= issue.message;
  return problems;
}

/**
 * The trigger with its settings, re-entry and exit condition: the cards of a new automation's form and
 * of an automation's settings in the builder. Lists and campaigns are those of the topic's brand.
 */
export function AutomationSettingsFields({
  value,
  onChange,
  lists,
  campaigns,
  attributes,
  errors,
}: {
  value: SettingsDraft;
  onChange: (next: SettingsDraft) => void;
  lists: AutomationFormOptions["lists"];
  campaigns: AutomationFormOptions["campaigns"];
  attributes: AutomationFormOptions["attributes"];
  errors: Record<string, string>;
}) {
  const set = <K extends keyof SettingsDraft>(key: K, next: SettingsDraft[K]) => onChange({ ...value, [key]: next });
  return (
    <>
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
                value={value.trigger}
                // Another trigger's settings mean nothing to this one.
                onChange={(e) => onChange({ ...value, trigger: e.target.value as AutomationTrigger, settings: {} })}
              >
                {AUTOMATION_TRIGGERS.map((trigger) => (
                  <option key={trigger} value={trigger}>
                    {TRIGGER_WORDS[trigger]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <TriggerSettingsFields
            trigger={value.trigger}
            settings={value.settings}
            onChange={(settings) => set("settings", settings)}
            lists={lists}
            campaigns={campaigns}
            attributes={attributes}
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
            <Checkbox checked={value.reenter} onChange={(e) => set("reenter", e.target.checked)} />
            People may enter again after their run ended
          </label>
          {value.reenter && (
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
                  value={value.reentryDays}
                  onChange={(e) => set("reentryDays", e.target.value)}
                />
              )}
            </Field>
          )}
          <ConditionFields
            id="exit-condition"
            value={value.exitCondition}
            onChange={(condition) => set("exitCondition", condition)}
            lists={lists}
            errors={errors}
            path="exit_condition"
            label="Exit condition"
            allowNone
          />
        </CardContent>
      </Card>
    </>
  );
}
