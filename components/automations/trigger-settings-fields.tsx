"use client";

import { errorText } from "@/components/forms/use-action-form";
import { Field } from "@/components/ui/field";
import { Checkbox, Input, NativeSelect } from "@/components/ui/input";
import type { AutomationTrigger } from "@/lib/automations/automation-schemas";

type Named = { id: string; name: string };
type Attribute = { key: string; type: string };

/** The settings of the chosen trigger: a list, an attribute, a date with its offset, a campaign's link, an event name. */
export function TriggerSettingsFields({
  trigger,
  settings,
  onChange,
  lists,
  campaigns,
  attributes,
  errors,
}: {
  trigger: AutomationTrigger;
  settings: Record<string, unknown>;
  onChange: (settings: Record<string, unknown>) => void;
  lists: Named[];
  campaigns: Named[];
  attributes: Attribute[];
  errors: Record<string, string>;
}) {
  const set = (key: string, value: unknown) => onChange({ ...settings, [key]: value });
  const error = (key: string) =>
    errorText(errors[`trigger_settings.${key}`] ?? (key === "" ? errors.trigger_settings : undefined));
  const text = (key: string) => (typeof settings[key] === "string" ? (settings[key] as string) : "");
  const picker = (
    key: string,
    label: string,
    options: { value: string; label: string }[],
    empty: string,
    hint?: string,
  ) => (
    <Field
      id={`trigger-${key}`}
      label={label}
      error={error(key) ?? (options.length === 0 ? empty : undefined)}
      hint={hint}
    >
      {(aria) => (
        <NativeSelect {...aria} value={text(key)} onChange={(e) => set(key, e.target.value || undefined)}>
          <option value="">Choose…</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
  const attributeOptions = (only?: string) =>
    attributes.filter((a) => !only || a.type === only).map((a) => ({ value: a.key, label: a.key }));

  switch (trigger) {
    case "topic_confirmed":
      return (
        <p className="text-sm text-muted-foreground">
          A person enters when their subscription to the topic is confirmed (or made, for a topic without confirmation).
        </p>
      );
    case "list_added":
      return picker(
        "list_id",
        "List",
        lists.map((l) => ({ value: l.id, label: l.name })),
        "The topic's brand has no list yet: create one under Lists.",
        "Added by the dashboard, the API or a form; an import only when you tick it for that import.",
      );
    case "attribute_changed":
      return (
        <div className="grid gap-4 sm:grid-cols-3">
          {picker("attribute", "Attribute", attributeOptions(), "Define a custom attribute first.")}
          {(["from", "to"] as const).map((key) => (
            <Field
              key={key}
              id={`trigger-${key}`}
              label={key === "from" ? "From (optional)" : "To (optional)"}
              error={error(key)}
            >
              {(aria) => (
                <Input
                  {...aria}
                  value={text(key)}
                  placeholder="Any value"
                  onChange={(e) => set(key, e.target.value === "" ? null : e.target.value)}
                />
              )}
            </Field>
          ))}
        </div>
      );
    case "date_attribute":
      return (
        <div className="grid gap-4 sm:grid-cols-3">
          {picker(
            "attribute",
            "Date attribute",
            attributeOptions("date"),
            "Define a custom attribute of type date first.",
          )}
          <Field
            id="trigger-offset_days"
            label="Days before (−) or after (+)"
            error={error("offset_days")}
            hint="0: on the day."
          >
            {(aria) => (
              <Input
                {...aria}
                type="number"
                min={-365}
                max={365}
                value={typeof settings.offset_days === "number" ? settings.offset_days : 0}
                onChange={(e) => set("offset_days", e.target.value === "" ? 0 : Number(e.target.value))}
              />
            )}
          </Field>
          <label className="flex items-center gap-2 self-center text-sm">
            <Checkbox checked={settings.yearly === true} onChange={(e) => set("yearly", e.target.checked)} />
            Every year (a birthday, an anniversary)
          </label>
        </div>
      );
    case "link_clicked":
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {picker(
            "campaign_id",
            "Campaign",
            campaigns.map((c) => ({ value: c.id, label: c.name })),
            "The topic's brand has no campaign yet.",
          )}
          <Field id="trigger-url" label="Link (optional)" error={error("url")} hint="Empty: any link in the campaign.">
            {(aria) => (
              <Input
                {...aria}
                type="url"
                value={text("url")}
                placeholder="https://…"
                onChange={(e) => set("url", e.target.value === "" ? null : e.target.value)}
              />
            )}
          </Field>
        </div>
      );
    case "event":
      return (
        <Field
          id="trigger-name"
          label="Event name"
          error={error("name")}
          hint="As your systems send it to POST /v1/events: letters, digits and . _ : -"
        >
          {(aria) => (
            <Input
              {...aria}
              value={text("name")}
              maxLength={100}
              placeholder="trial.started"
              onChange={(e) => set("name", e.target.value)}
            />
          )}
        </Field>
      );
  }
}
