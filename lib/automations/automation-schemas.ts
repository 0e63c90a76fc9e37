import { z } from "zod";

import { segmentRuleSchema } from "../segments/segment-rule-schema";

// The automation's input shapes (docs/readings.md, "Automations"), free of database code so the
// builder, the CLI and /v1 check input with the same rules.

export const AUTOMATION_STATUSES = ["draft", "active", "paused"] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** The one status change each status allows (lib/automations/automations.ts enforces it; the builder offers it). */
export const STATUS_CHANGE = {
  draft: "activate",
  active: "pause",
  paused: "resume",
} as const satisfies Record<AutomationStatus, string>;
export type StatusChange = (typeof STATUS_CHANGE)[AutomationStatus];

/** What makes a person enter. Each has its settings (`triggerSettingsSchema`). */
export const AUTOMATION_TRIGGERS = [
  "topic_confirmed",
  "list_added",
  "attribute_changed",
  "date_attribute",
  "link_clicked",
  "event",
] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];

export const ENTRY_STATUSES = ["active", "completed", "exited"] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** Why a person left before the last step: re-checked at every send; `exit_step` and `exit_condition` are the sender's. */
export const EXIT_REASONS = [
  "unsubscribed",
  "opted_out",
  "suppressed",
  "erased",
  "exit_step",
  "exit_condition",
] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

const MINUTE = 60_000;
/** The longest single wait: a year. */
const MAX_WAIT_MINUTES = 366 * 24 * 60;
/** Steps in one version, counting the steps inside branches. */
export const MAX_STEPS = 100;
/** How deep branches may nest. */
export const MAX_BRANCH_DEPTH = 5;

const id = z.string().min(1).max(100);
/** A custom attribute's key, as the workspace defines it. */
const attributeKey = z.string().trim().min(1).max(100);
/** A custom event's name, as the sender's systems send it to POST /v1/events. */
export const eventNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, and . _ : - only");

// ---- Triggers -------------------------------------------------------------------------------

export const triggerSettingsSchemas = {
  /** A double opt-in to the automation's topic confirmed, or a subscription made without confirmation. */
  topic_confirmed: z.strictObject({}),
  /** Added to the list (by the dashboard, the API or a form; an import only when its sender ticks it). */
  list_added: z.strictObject({ list_id: id }),
  /** A custom attribute changed; `from`/`to` narrow it to those values (left out: any). */
  attribute_changed: z.strictObject({
    attribute: attributeKey,
    from: z.string().max(1000).nullish(),
    to: z.string().max(1000).nullish(),
  }),
  /** A date attribute comes round: `offset_days` before (negative) or after it, every year when `yearly`. */
  date_attribute: z.strictObject({
    attribute: attributeKey,
    offset_days: z.number().int().min(-365).max(365).default(0),
    yearly: z.boolean().default(false),
  }),
  /** A link in the campaign clicked (by a person, not a scanner); `url` narrows it to one link. */
  link_clicked: z.strictObject({ campaign_id: id, url: z.string().max(2000).nullish() }),
  /** A custom event sent through POST /v1/events. */
  event: z.strictObject({ name: eventNameSchema }),
} satisfies Record<AutomationTrigger, z.ZodType>;

export type TriggerSettings<T extends AutomationTrigger = AutomationTrigger> = z.output<
  (typeof triggerSettingsSchemas)[T]
>;

// ---- Conditions (branches and exit conditions) ----------------------------------------------

/** A condition a branch tests, or that ends a person's run when it holds (the exit condition). */
export const automationConditionSchema = z.discriminatedUnion("kind", [
  /** The contact matches a segment rule (the segment compiler's rule, the same operators). */
  z.strictObject({ kind: z.literal("segment"), rule: segmentRuleSchema }),
  /** The person opened or clicked the mail of an earlier send step of this automation (by its step number). */
  z.strictObject({ kind: z.enum(["opened", "clicked"]), step: z.number().int().min(0) }),
  /** A custom event with this name was sent for the person since they entered (or in the last `within_minutes`). */
  z.strictObject({
    kind: z.literal("event"),
    name: eventNameSchema,
    within_minutes: z.number().int().min(1).max(MAX_WAIT_MINUTES).nullish(),
  }),
]);
export type AutomationCondition = z.output<typeof automationConditionSchema>;

// ---- Steps ----------------------------------------------------------------------------------

const sendStep = z
  .strictObject({
    type: z.literal("send"),
    subject: z.string().trim().min(1).max(998),
    html: z.string().max(1_000_000).optional(),
    text: z.string().max(1_000_000).optional(),
    /** The block editor's document the html and text were rendered from, kept to edit again. */
    document: z.record(z.string(), z.unknown()).nullish(),
  })
  .refine((s) => Boolean(s.html?.trim() || s.text?.trim()), { message: "A mail needs html or text." });

/** Wait for a duration: whole minutes, 1 to a year. */
const waitStep = z.strictObject({
  type: z.literal("wait"),
  minutes: z.number().int().min(1).max(MAX_WAIT_MINUTES),
});

/** Wait until the next of these weekdays (0 Sunday … 6 Saturday; left out: any day) at this hour, in the contact's time zone. */
const waitUntilStep = z.strictObject({
  type: z.literal("wait_until"),
  weekdays: z.array(z.number().int().min(0).max(6)).max(7).optional(),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59).default(0),
});

/** Wait for a custom event; after the timeout the run goes on without it (a branch can test `event` later). */
const waitForEventStep = z.strictObject({
  type: z.literal("wait_for_event"),
  name: eventNameSchema,
  timeout_minutes: z.number().int().min(1).max(MAX_WAIT_MINUTES),
});

const listStep = z.strictObject({ type: z.enum(["list_add", "list_remove"]), list_id: id });

const setAttributeStep = z.strictObject({
  type: z.literal("set_attribute"),
  attribute: attributeKey,
  /** The value as the attribute's type takes it; null clears it. */
  value: z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]),
});

/** Ends the person's run here (exit reason `exit_step`). */
const exitStep = z.strictObject({ type: z.literal("exit") });

type Leaf = z.output<
  | typeof sendStep
  | typeof waitStep
  | typeof waitUntilStep
  | typeof waitForEventStep
  | typeof listStep
  | typeof setAttributeStep
  | typeof exitStep
>;
/** A branch: `yes` when the condition holds at that moment, `no` otherwise; the run goes on after the branch. */
export type BranchStep = {
  type: "branch";
  condition: AutomationCondition;
  yes: AutomationStep[];
  no: AutomationStep[];
};
export type AutomationStep = Leaf | BranchStep;

export const automationStepSchema: z.ZodType<AutomationStep> = z.lazy(() =>
  z.discriminatedUnion("type", [
    sendStep,
    waitStep,
    waitUntilStep,
    waitForEventStep,
    listStep,
    setAttributeStep,
    exitStep,
    z.strictObject({
      type: z.literal("branch"),
      condition: automationConditionSchema,
      yes: z.array(automationStepSchema).max(MAX_STEPS),
      no: z.array(automationStepSchema).max(MAX_STEPS),
    }),
  ]),
);
export type SendStep = Extract<AutomationStep, { type: "send" }>;
export type AutomationStepType = AutomationStep["type"];

/**
 * Every step of a version numbered in pre-order (a branch, then its `yes` arm, then its `no` arm, then
 * what follows it). The number is the step's identity within its version (versions never change): run
 * step names, `automation_sends.step_index`, `automation_entries.step_index` and the figures use it.
 */
export interface NumberedStep {
  index: number;
  step: AutomationStep;
  /** How many branches it sits inside. */
  depth: number;
}
export function numberSteps(steps: readonly AutomationStep[]): NumberedStep[] {
  const out: NumberedStep[] = [];
  const walk = (list: readonly AutomationStep[], depth: number) => {
    for (const step of list) {
      out.push({ index: out.length, step, depth });
      if (step.type === "branch") {
        walk(step.yes, depth + 1);
        walk(step.no, depth + 1);
      }
    }
  };
  walk(steps, 0);
  return out;
}

export const automationStepsSchema = z
  .array(automationStepSchema)
  .min(1)
  .max(MAX_STEPS)
  .superRefine((steps, issue) => {
    const numbered = numberSteps(steps);
    if (numbered.length > MAX_STEPS)
      issue.addIssue({ code: "custom", message: `At most ${MAX_STEPS} steps, counting those inside branches.` });
    if (numbered.some((s) => s.depth > MAX_BRANCH_DEPTH))
      issue.addIssue({ code: "custom", message: `Branches nest at most ${MAX_BRANCH_DEPTH} deep.` });
    // An opened/clicked condition names an earlier send step of the same version.
    for (const { index, step } of numbered) {
      const condition = step.type === "branch" ? step.condition : null;
      if (condition && (condition.kind === "opened" || condition.kind === "clicked")) {
        const target = numbered[condition.step];
        if (!target || target.step.type !== "send" || condition.step >= index)
          issue.addIssue({
            code: "custom",
            message: `Step ${index}: step ${condition.step} is not an earlier send step.`,
          });
      }
    }
  });

// ---- The automation -------------------------------------------------------------------------

/**
 * What an automation's trigger, re-entry rule and exit condition are: set when it is created, changed
 * later (updateAutomationSettings) with the same rules.
 */
const settingsShape = {
  trigger: z.enum(AUTOMATION_TRIGGERS).default("topic_confirmed"),
  /** The trigger's settings (`triggerSettingsSchemas`); left out for a trigger that has none. */
  trigger_settings: z.record(z.string(), z.unknown()).default({}),
  /** Whether a person may enter again after their entry ended, and after how many minutes; null: never. */
  reentry_after_minutes: z.number().int().min(0).max(MAX_WAIT_MINUTES).nullish(),
  /** When it holds at any step, the person's run ends (`exit_condition`). */
  exit_condition: automationConditionSchema.nullish(),
};

/** The settings checked against the trigger chosen, each problem named under `trigger_settings`. */
function checkTriggerSettings<T extends { trigger: AutomationTrigger; trigger_settings: Record<string, unknown> }>(
  input: T,
  issue: z.RefinementCtx<T>,
): T & { trigger_settings: TriggerSettings } {
  const settings = triggerSettingsSchemas[input.trigger].safeParse(input.trigger_settings);
  if (!settings.success) {
    for (const problem of settings.error.issues)
      issue.addIssue({ ...problem, code: "custom", path: ["trigger_settings", ...problem.path] });
    return z.NEVER;
  }
  return { ...input, trigger_settings: settings.data as TriggerSettings };
}

export const createAutomationSchema = z
  .strictObject({ name: z.string().trim().min(1).max(200), topic_id: z.string().min(1), ...settingsShape })
  .transform(checkTriggerSettings);
export type CreateAutomationInput = z.input<typeof createAutomationSchema>;

/** An automation's trigger with its settings, re-entry and exit condition, whole: what a change leaves them as. */
export const automationSettingsSchema = z.strictObject(settingsShape).transform(checkTriggerSettings);
export type AutomationSettingsInput = z.input<typeof automationSettingsSchema>;
export type AutomationSettings = z.output<typeof automationSettingsSchema>;

/**
 * A change of settings: only what is named changes (null clears re-entry or the exit condition).
 * Another trigger named without its settings starts from none (the old trigger's mean nothing to it);
 * settings named without a trigger are the current trigger's. The result is checked whole, by
 * `automationSettingsSchema`, so a change names its problems as creation does.
 */
export const updateAutomationSettingsSchema = z
  .strictObject({
    trigger: z.enum(AUTOMATION_TRIGGERS).optional(),
    trigger_settings: z.record(z.string(), z.unknown()).optional(),
    reentry_after_minutes: settingsShape.reentry_after_minutes,
    exit_condition: settingsShape.exit_condition,
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: "Name at least one of trigger, trigger_settings, reentry_after_minutes and exit_condition to change.",
  });
export type UpdateAutomationSettingsInput = z.input<typeof updateAutomationSettingsSchema>;

export const setStepsSchema = z.strictObject({ steps: automationStepsSchema });
export type SetStepsInput = z.input<typeof setStepsSchema>;

/** A wait step's length in milliseconds. */
export const waitMs = (step: { minutes: number }) => step.minutes * MINUTE;
