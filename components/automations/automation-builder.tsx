"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import type { AutomationFigures } from "@/lib/automations/automation-figures";
import {
  automationStepsSchema,
  STATUS_CHANGE,
  type AutomationSettingsInput,
  type AutomationStep,
  type AutomationStepType,
  type StatusChange,
} from "@/lib/automations/automation-schemas";
import type { AutomationFormOptions } from "@/lib/automations/list-automations";
import { numberedPath, stepNumberOf } from "@/lib/automations/step-paths";
import type { ActionState } from "@/lib/dashboard/action-state";
import { dashboardKeys, dashboardReads } from "@/lib/dashboard/dashboard-reads";

import { AutomationFigureStrip } from "./automation-figure-strip";
import { AutomationFlow } from "./automation-flow";
import { AutomationSettingsPanel, type UpdateSettingsAction } from "./automation-settings-panel";
import { AutomationStepList } from "./automation-step-list";
import { STEP_WORDS, stepSummary } from "./automation-words";
import { keyOf, type CardView, type FlowModel } from "./flow-model";
import type { Figure } from "./step-card";
import { StepEditor } from "./step-editor";
import {
  insertStep,
  newStep,
  placeSteps,
  removeStep,
  replaceStep,
  sameAddress,
  stepsToSave,
  type Address,
} from "./steps-tree";

const CHANGE_LABEL: Record<StatusChange, string> = { activate: "Activate", pause: "Pause", resume: "Resume" };
const CHANGED: Record<StatusChange, string> = {
  activate: "Active: people enter from now on.",
  pause: "Paused: nothing is sent, everyone keeps their place.",
  resume: "Resumed.",
};

type Act<I, R = unknown> = (workspaceId: string, input: I) => Promise<ActionState<R>>;
export interface BuilderActions {
  save: Act<{ automationId: string; steps: unknown[] }, { version: number; onOlderVersions: number }>;
  activate: Act<{ automationId: string }>;
  pause: Act<{ automationId: string }>;
  resume: Act<{ automationId: string }>;
  updateSettings: UpdateSettingsAction;
}

const FIGURES_EVERY_MS = 5_000;

/** The browser's own check, with the server's rules: each problem by the step's number (`steps.2.subject`). */
function problemsOf(steps: AutomationStep[]): Record<string, string> {
  // A block-editor mail has no html yet (the server renders it): it counts as written.
  const checkable = JSON.parse(JSON.stringify(stepsToSave(steps)), (key, value) =>
    value && typeof value === "object" && value.type === "send" && value.document
      ? { ...value, html: "<p></p>" }
      : value,
  ) as unknown;
  const parsed = automationStepsSchema.safeParse(checkable);
  const problems: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) problems[numberedPath(checkable, issue.path as Address)] ??= issue.message;
  return problems;
}

const wide = (notify: () => void) => {
  const query = window.matchMedia("(min-width: 768px)");
  query.addEventListener("change", notify);
  return () => query.removeEventListener("change", notify);
};

/**
 * The automation builder: the flow (a canvas, or a list at phone width), a side panel to edit a
 * step, Save (a new version), the status buttons and the figures, read again every few seconds.
 */
export function AutomationBuilder({
  workspaceId,
  automationId,
  trigger,
  settings,
  initialSteps,
  initialFigures,
  options,
  actions,
}: {
  workspaceId: string;
  automationId: string;
  trigger: { title: string; summary: string; details: string[] };
  /** The trigger's settings, re-entry and exit condition as saved: the settings panel starts from them. */
  settings: AutomationSettingsInput;
  initialSteps: AutomationStep[];
  initialFigures: AutomationFigures;
  options: Pick<AutomationFormOptions, "lists" | "campaigns" | "attributes">;
  actions: BuilderActions;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [steps, setSteps] = useState(initialSteps);
  const [savedJson, setSavedJson] = useState(JSON.stringify(stepsToSave(initialSteps)));
  const [open, setOpen] = useState<Address | "trigger" | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [pending, setPending] = useState(false);
  const isWide = useSyncExternalStore(
    wide,
    () => window.matchMedia("(min-width: 768px)").matches,
    () => null,
  );

  const figures = useQuery({
    queryKey: dashboardKeys.automationFigures(workspaceId, automationId),
    queryFn: ({ signal }) => dashboardReads.automationFigures(workspaceId, automationId, signal),
    initialData: initialFigures,
    refetchInterval: FIGURES_EVERY_MS,
  }).data;
  const dirty = JSON.stringify(stepsToSave(steps)) !== savedJson;
  const errors = { ...(checked ? problemsOf(steps) : {}), ...serverErrors };
  const placed = placeSteps(steps);

  const change = (next: AutomationStep[]) => {
    setSteps(next);
    setServerErrors({});
    setMessage(null);
  };
  const errorsOf = (index: number) => {
    const mine: Record<string, string> = {};
    for (const [path, text] of Object.entries(errors))
      if (stepNumberOf(path) === index) mine[path.split(".").slice(2).join(".")] = text;
    return mine;
  };
  const cards = new Map<string, CardView>();
  for (const at of placed) {
    const counts = !dirty ? figures.steps.find((s) => s.index === at.index) : undefined;
    const shown: Figure[] = [];
    if (counts) {
      if (counts.sent !== undefined) shown.push({ label: "sent", value: counts.sent });
      const skipped = Object.values(counts.skipped ?? {}).reduce((sum, n) => sum + n, 0);
      if (counts.sent !== undefined)
        shown.push({ label: "skipped", value: skipped, tone: skipped ? "warn" : undefined });
      // People who opened and clicked (a person's, not a machine's: lib/automations/automations.ts).
      if (counts.opened !== undefined) shown.push({ label: "opened", value: counts.opened });
      if (counts.clicked !== undefined) shown.push({ label: "clicked", value: counts.clicked });
      // How many went down each arm, named as the arms are on the canvas.
      if (counts.arms) {
        shown.push({ label: "yes", value: counts.arms.yes });
        shown.push({ label: "no", value: counts.arms.no });
      }
      shown.push({ label: "waiting", value: counts.waiting });
    }
    const problems = errorsOf(at.index);
    cards.set(keyOf(at.address), {
      placed: at,
      title: STEP_WORDS[at.step.type],
      summary: stepSummary(at.step, options),
      figures: shown,
      error: Object.values(problems)[0],
    });
  }
  const model: FlowModel = {
    steps,
    trigger: {
      title: trigger.title,
      summary: trigger.summary,
      figures: [
        { label: "entered", value: figures.entered },
        { label: "active", value: figures.active },
        { label: "completed", value: figures.completed },
      ],
      error: errors.steps,
    },
    cards,
    open: setOpen,
    add: (listAddress: Address, at: number, type: AutomationStepType) => {
      const firstList = options.lists[0]?.id ?? "";
      change(insertStep(steps, listAddress, at, newStep(type, firstList)));
      setOpen([...listAddress, at]);
    },
  };

  const save = async () => {
    setChecked(true);
    if (Object.keys(problemsOf(steps)).length > 0) {
      setMessage({ text: "Check the steps marked in red.", error: true });
      return;
    }
    setPending(true);
    const state = await actions.save(workspaceId, { automationId, steps: stepsToSave(steps) });
    setPending(false);
    if (!state.ok) {
      setServerErrors(state.fieldErrors);
      setMessage({ text: state.message, error: true });
      return;
    }
    const { version, onOlderVersions: older } = state.result;
    const text = `Version ${version} saved${older > 0 ? `; ${older.toLocaleString("en")} ${older === 1 ? "person is" : "people are"} still on older versions` : ""}.`;
    setSavedJson(JSON.stringify(stepsToSave(steps)));
    setChecked(false);
    setMessage({ text, error: false });
    toast.success(text);
    await queryClient.invalidateQueries({ queryKey: dashboardKeys.automationFigures(workspaceId, automationId) });
  };
  const setStatus = async (act: BuilderActions["activate"], done: string) => {
    setPending(true);
    const state = await act(workspaceId, { automationId });
    setPending(false);
    if (!state.ok) {
      setMessage({ text: state.message, error: true });
      return;
    }
    toast.success(done);
    await queryClient.invalidateQueries({ queryKey: dashboardKeys.automationFigures(workspaceId, automationId) });
    router.refresh();
  };

  const editing = open && open !== "trigger" ? placed.find((at) => sameAddress(at.address, open)) : undefined;
  const earlierSends = editing
    ? placed
        .filter((at) => at.step.type === "send" && at.index < editing.index)
        .map((at) => ({ index: at.index, label: `Step ${at.index + 1}: ${stepSummary(at.step, options)}` }))
    : [];

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" onClick={save} disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={pending || (STATUS_CHANGE[figures.status] === "activate" && (dirty || figures.version === null))}
          onClick={() => setStatus(actions[STATUS_CHANGE[figures.status]], CHANGED[STATUS_CHANGE[figures.status]])}
        >
          {CHANGE_LABEL[STATUS_CHANGE[figures.status]]}
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen("trigger")}>
          Settings
        </Button>
        <span className="text-sm text-muted-foreground" data-testid="builder-state">
          {dirty
            ? "Unsaved changes."
            : figures.version === null
              ? "No steps saved yet: add some, then save."
              : `Version ${figures.version}.${STATUS_CHANGE[figures.status] === "activate" ? " Activate it to let people in." : ""}`}
        </span>
      </div>
      {message && (
        <p
          role={message.error ? "alert" : "status"}
          className={message.error ? "text-sm text-destructive" : "text-sm"}
          data-testid="builder-message"
        >
          {message.text}
        </p>
      )}
      <AutomationFigureStrip figures={figures} />
      {isWide === null ? (
        <Skeleton className="h-96 w-full" />
      ) : isWide ? (
        <AutomationFlow model={model} />
      ) : (
        <AutomationStepList model={model} />
      )}

      <Dialog open={open !== null} onOpenChange={(next) => !next && setOpen(null)}>
        <DialogContent className="top-0 right-0 left-auto h-dvh max-h-dvh w-full max-w-full translate-x-0 translate-y-0 content-start overflow-y-auto rounded-none sm:max-w-2xl">
          {open === "trigger" ? (
            <AutomationSettingsPanel
              workspaceId={workspaceId}
              automationId={automationId}
              saved={settings}
              details={trigger.details}
              options={options}
              action={actions.updateSettings}
              onSaved={() => {
                setOpen(null);
                // The trigger's card and the page's header read the saved settings on the server.
                router.refresh();
              }}
              onCancel={() => setOpen(null)}
            />
          ) : editing ? (
            <>
              <DialogHeader>
                <DialogTitle>
                  Step {editing.index + 1}: {STEP_WORDS[editing.step.type]}
                </DialogTitle>
                <DialogDescription>Changes are kept here; Save makes them a new version.</DialogDescription>
              </DialogHeader>
              <StepEditor
                key={keyOf(editing.address)}
                workspaceId={workspaceId}
                step={editing.step}
                onChange={(step) => change(replaceStep(steps, editing.address, step))}
                onDelete={() => {
                  change(removeStep(steps, editing.address));
                  setOpen(null);
                }}
                errors={errorsOf(editing.index)}
                lists={options.lists}
                attributes={options.attributes}
                sendSteps={earlierSends}
              />
              <div>
                <Button type="button" onClick={() => setOpen(null)}>
                  Done
                </Button>
              </div>
            </>
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}
