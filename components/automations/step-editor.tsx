"use client";

import type { JSONContent } from "@tiptap/react";
import { Trash2 } from "lucide-react";
import { useState } from "react";

import { BlockEditor } from "@/components/campaigns/block-editor";
import { errorText } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Checkbox, Input, NativeSelect, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { AutomationStep } from "@/lib/automations/automation-schemas";
import { STARTER_DOCUMENT } from "@/lib/email-blocks/email-extensions";

import { WEEKDAYS } from "./automation-words";
import { ConditionFields } from "./condition-fields";

type Named = { id: string; name: string };
type Attribute = { key: string; type: string };
const UNITS = { minutes: 1, hours: 60, days: 1440 } as const;
type Unit = keyof typeof UNITS;

const unitOf = (minutes: number): Unit => (minutes % 1440 === 0 ? "days" : minutes % 60 === 0 ? "hours" : "minutes");

/** A duration as an amount and a unit, kept in whole minutes. */
function DurationField({
  id,
  label,
  minutes,
  error,
  onChange,
}: {
  id: string;
  label: string;
  minutes: number;
  error?: string;
  onChange: (minutes: number) => void;
}) {
  const [unit, setUnit] = useState<Unit>(unitOf(minutes));
  return (
    <Field id={id} label={label} error={errorText(error)}>
      {(aria) => (
        <div className="flex gap-2">
          <Input
            {...aria}
            type="number"
            min={1}
            className="w-28"
            value={Number.isFinite(minutes) ? minutes / UNITS[unit] : ""}
            onChange={(e) => onChange(Math.round(Number(e.target.value) * UNITS[unit]))}
          />
          <NativeSelect
            aria-label={`${label}: unit`}
            className="w-32"
            value={unit}
            onChange={(e) => {
              const next = e.target.value as Unit;
              setUnit(next);
              onChange(Math.round((minutes / UNITS[unit]) * UNITS[next]));
            }}
          >
            {Object.keys(UNITS).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
    </Field>
  );
}

/**
 * The fields of one step, in the builder's side panel. Every change goes to the builder at once;
 * `errors` are this step's problems by field (`subject`, `condition.name`).
 */
export function StepEditor({
  workspaceId,
  step,
  onChange,
  onDelete,
  errors,
  lists,
  attributes,
  sendSteps,
}: {
  workspaceId: string;
  step: AutomationStep;
  onChange: (step: AutomationStep) => void;
  onDelete: () => void;
  errors: Record<string, string>;
  lists: Named[];
  attributes: Attribute[];
  sendSteps: { index: number; label: string }[];
}) {
  const fields = (() => {
    switch (step.type) {
      case "send":
        return (
          <SendFields
            workspaceId={workspaceId}
            step={step}
            onChange={onChange}
            errors={errors}
            attributes={attributes}
          />
        );
      case "wait":
        return (
          <DurationField
            id="step-wait"
            label="Wait for"
            minutes={step.minutes}
            error={errors.minutes}
            onChange={(minutes) => onChange({ ...step, minutes })}
          />
        );
      case "wait_until":
        return (
          <div className="grid gap-4">
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">On (none ticked: any day)</legend>
              <div className="flex flex-wrap gap-3">
                {WEEKDAYS.map((day, n) => (
                  <label key={day} className="flex items-center gap-1.5 text-sm">
                    <Checkbox
                      checked={step.weekdays?.includes(n) ?? false}
                      onChange={(e) =>
                        onChange({
                          ...step,
                          weekdays: e.target.checked
                            ? [...(step.weekdays ?? []), n].sort()
                            : (step.weekdays ?? []).filter((d) => d !== n),
                        })
                      }
                    />
                    {day}
                  </label>
                ))}
              </div>
            </fieldset>
            <Field
              id="step-hour"
              label="At (their time zone)"
              error={errorText(errors.hour ?? errors.minute)}
              className="sm:w-48"
            >
              {(aria) => (
                <Input
                  {...aria}
                  type="time"
                  step={60}
                  value={`${String(step.hour).padStart(2, "0")}:${String(step.minute ?? 0).padStart(2, "0")}`}
                  onChange={(e) => {
                    const [hour = 0, minute = 0] = e.target.value.split(":").map(Number);
                    onChange({ ...step, hour, minute });
                  }}
                />
              )}
            </Field>
          </div>
        );
      case "wait_for_event":
        return (
          <div className="grid gap-4">
            <Field
              id="step-event"
              label="Event name"
              error={errorText(errors.name)}
              hint="As your systems send it to POST /v1/events."
            >
              {(aria) => (
                <Input
                  {...aria}
                  value={step.name}
                  maxLength={100}
                  onChange={(e) => onChange({ ...step, name: e.target.value })}
                />
              )}
            </Field>
            <DurationField
              id="step-timeout"
              label="Go on without it after"
              minutes={step.timeout_minutes}
              error={errors.timeout_minutes}
              onChange={(timeout_minutes) => onChange({ ...step, timeout_minutes })}
            />
          </div>
        );
      case "list_add":
      case "list_remove":
        return (
          <Field
            id="step-list"
            label="List"
            error={
              errorText(errors.list_id) ??
              (lists.length === 0 ? "Create a list of the topic's brand first." : undefined)
            }
          >
            {(aria) => (
              <NativeSelect
                {...aria}
                value={step.list_id}
                onChange={(e) => onChange({ ...step, list_id: e.target.value })}
              >
                {lists.map((list) => (
                  <option key={list.id} value={list.id}>
                    {list.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        );
      case "set_attribute":
        return (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="step-attribute" label="Attribute" error={errorText(errors.attribute)}>
              {(aria) => (
                <NativeSelect
                  {...aria}
                  value={step.attribute}
                  onChange={(e) => onChange({ ...step, attribute: e.target.value })}
                >
                  <option value="">Choose…</option>
                  {attributes.map((a) => (
                    <option key={a.key} value={a.key}>
                      {a.key} ({a.type})
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            <Field id="step-value" label="Value" error={errorText(errors.value)} hint="Empty clears it.">
              {(aria) => {
                const type = attributes.find((a) => a.key === step.attribute)?.type;
                return (
                  <Input
                    {...aria}
                    value={step.value === null ? "" : String(step.value)}
                    onChange={(e) => {
                      const raw = e.target.value;
                      const value =
                        raw === ""
                          ? null
                          : type === "number" && !Number.isNaN(Number(raw))
                            ? Number(raw)
                            : type === "boolean" && (raw === "true" || raw === "false")
                              ? raw === "true"
                              : raw;
                      onChange({ ...step, value });
                    }}
                  />
                );
              }}
            </Field>
          </div>
        );
      case "branch":
        return (
          <ConditionFields
            id="step-condition"
            value={step.condition}
            onChange={(condition) => condition && onChange({ ...step, condition })}
            lists={lists}
            sendSteps={sendSteps}
            errors={errors}
            path="condition"
          />
        );
      case "exit":
        return (
          <p className="text-sm text-muted-foreground">
            The person&apos;s run ends here, with the reason “reached an exit step”.
          </p>
        );
    }
  })();
  return (
    <div className="grid gap-6">
      {errors[""] && (
        <p role="alert" className="text-sm text-destructive">
          {errorText(errors[""])}
        </p>
      )}
      {fields}
      <div>
        <Button type="button" variant="outline" onClick={onDelete}>
          <Trash2 /> Delete this step{step.type === "branch" ? " and its arms" : ""}
        </Button>
      </div>
    </div>
  );
}

function SendFields({
  workspaceId,
  step,
  onChange,
  errors,
  attributes,
}: {
  workspaceId: string;
  step: Extract<AutomationStep, { type: "send" }>;
  onChange: (step: AutomationStep) => void;
  errors: Record<string, string>;
  attributes: Attribute[];
}) {
  const [mode, setMode] = useState<"blocks" | "html">(step.document || !step.html ? "blocks" : "html");
  const [document, setDocument] = useState<JSONContent>(
    (step.document as JSONContent | null | undefined) ?? STARTER_DOCUMENT,
  );
  const bodyError = errorText(errors.document ?? errors.html ?? errors[""]);
  return (
    <div className="grid gap-4">
      <Field
        id="step-subject"
        label="Subject"
        error={errorText(errors.subject)}
        hint="Merge tags as in campaigns: {{contact.first_name}}."
      >
        {(aria) => (
          <Input
            {...aria}
            value={step.subject}
            maxLength={998}
            onChange={(e) => onChange({ ...step, subject: e.target.value })}
          />
        )}
      </Field>
      <div role="group" aria-label="Write the body as" className="inline-flex w-fit gap-1 rounded-md border p-1">
        {(["blocks", "html"] as const).map((value) => (
          <Button
            key={value}
            type="button"
            size="sm"
            variant={mode === value ? "secondary" : "ghost"}
            aria-pressed={mode === value}
            onClick={() => {
              setMode(value);
              onChange({ ...step, document: value === "blocks" ? (document as Record<string, unknown>) : null });
            }}
          >
            {value === "blocks" ? "Blocks" : "HTML"}
          </Button>
        ))}
      </div>
      {mode === "blocks" ? (
        <div className="grid gap-2">
          <Label id="body-label">Body</Label>
          <BlockEditor
            workspaceId={workspaceId}
            initial={document}
            attributes={attributes.map((a) => a.key)}
            invalid={Boolean(bodyError)}
            describedBy={bodyError ? "step-body-error" : undefined}
            onChange={(changed) => {
              setDocument(changed);
              onChange({ ...step, document: changed as Record<string, unknown> });
            }}
          />
        </div>
      ) : (
        <>
          <div className="grid gap-2">
            <Label htmlFor="step-html">Body (HTML)</Label>
            <Textarea
              id="step-html"
              rows={10}
              value={step.html ?? ""}
              aria-invalid={bodyError ? true : undefined}
              onChange={(e) => onChange({ ...step, html: e.target.value, document: null })}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="step-text">Plain-text part (optional)</Label>
            <Textarea
              id="step-text"
              rows={4}
              value={step.text ?? ""}
              aria-invalid={errors.text ? true : undefined}
              onChange={(e) => onChange({ ...step, text: e.target.value, document: null })}
            />
          </div>
        </>
      )}
      {bodyError && (
        <p id="step-body-error" role="alert" className="text-sm text-destructive">
          {bodyError}
        </p>
      )}
    </div>
  );
}
