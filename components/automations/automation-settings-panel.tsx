"use client";

import { useState } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { automationSettingsSchema, type AutomationSettingsInput } from "@/lib/automations/automation-schemas";
import type { AutomationFormOptions } from "@/lib/automations/list-automations";
import type { ActionState } from "@/lib/dashboard/action-state";

import {
  AutomationSettingsFields,
  draftOf,
  problemsOf,
  settingsOf,
  type SettingsDraft,
} from "./automation-settings-fields";

export type UpdateSettingsAction = (
  workspaceId: string,
  input: { automationId: string } & AutomationSettingsInput,
) => Promise<ActionState<unknown>>;

/**
 * The automation's settings in the builder's side panel: its trigger with its settings, re-entry and
 * exit condition, in the new automation form's fields. Saved at once, apart from the steps (no new
 * version); what a change means for people already inside is said above the fields, as
 * updateAutomationSettings applies it.
 */
export function AutomationSettingsPanel({
  workspaceId,
  automationId,
  saved,
  details,
  options,
  action,
  onSaved,
  onCancel,
}: {
  workspaceId: string;
  automationId: string;
  saved: AutomationSettingsInput;
  /** The saved settings in words, the topic (which stays) first. */
  details: string[];
  options: Pick<AutomationFormOptions, "lists" | "campaigns" | "attributes">;
  action: UpdateSettingsAction;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(saved));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const save = async () => {
    setMessage(null);
    const input = settingsOf(draft);
    const problems = problemsOf(automationSettingsSchema, input);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setMessage("Check the highlighted fields.");
      return;
    }
    setPending(true);
    const state = await action(workspaceId, { automationId, ...input });
    setPending(false);
    if (!state.ok) {
      setErrors(state.fieldErrors);
      setMessage(state.message);
      return;
    }
    toast.success("Settings saved.");
    onSaved();
  };

  return (
    <form
      className="grid gap-6"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <DialogHeader>
        <DialogTitle>Settings</DialogTitle>
        <DialogDescription>
          A new trigger or re-entry rule applies to people entering from now on. A new exit condition applies to
          everyone inside too, from their next step. The steps stay as they are.
        </DialogDescription>
        <ul className="mt-2 grid gap-1 text-sm" data-testid="automation-settings-now">
          {details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </DialogHeader>
      <AutomationSettingsFields
        value={draft}
        onChange={(next) => {
          setDraft(next);
          setErrors({});
          setMessage(null);
        }}
        lists={options.lists}
        campaigns={options.campaigns}
        attributes={options.attributes}
        errors={errors}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save settings"}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        {message && (
          <p role="alert" className="text-sm text-destructive" data-testid="settings-message">
            {message}
          </p>
        )}
      </div>
    </form>
  );
}
