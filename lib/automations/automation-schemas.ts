import { z } from "zod";

// The automation's input shapes (docs/readings.md, "Automations"), free of database code so a form,
// the CLI and a future /v1 route check input with the same rules.

export const AUTOMATION_STATUSES = ["draft", "active", "paused"] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** What makes a person enter: this slice knows a confirmed subscription to the automation's topic. */
export const AUTOMATION_TRIGGERS = ["topic_confirmed"] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];

export const ENTRY_STATUSES = ["active", "completed", "exited"] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** Why a person left before the last step: re-checked at every send. */
export const EXIT_REASONS = ["unsubscribed", "opted_out", "suppressed", "erased"] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

const MINUTE = 60_000;
/** The longest single wait: a year. */
const MAX_WAIT_MINUTES = 366 * 24 * 60;

const sendStep = z
  .object({
    type: z.literal("send"),
    subject: z.string().trim().min(1).max(998),
    html: z.string().max(1_000_000).optional(),
    text: z.string().max(1_000_000).optional(),
  })
  .strict()
  .refine((s) => Boolean(s.html?.trim() || s.text?.trim()), { message: "A mail needs html or text." });

const waitStep = z
  .object({
    type: z.literal("wait"),
    /** Whole minutes, 1 to a year. */
    minutes: z.number().int().min(1).max(MAX_WAIT_MINUTES),
  })
  .strict();

export const automationStepSchema = z.discriminatedUnion("type", [sendStep, waitStep]);
export type AutomationStep = z.infer<typeof automationStepSchema>;
export type SendStep = Extract<AutomationStep, { type: "send" }>;

export const automationStepsSchema = z.array(automationStepSchema).min(1).max(100);

export const createAutomationSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    topic_id: z.string().min(1),
    trigger: z.enum(AUTOMATION_TRIGGERS).default("topic_confirmed"),
  })
  .strict();
export type CreateAutomationInput = z.input<typeof createAutomationSchema>;

export const setStepsSchema = z.object({ steps: automationStepsSchema }).strict();
export type SetStepsInput = z.input<typeof setStepsSchema>;

/** A wait step's length in milliseconds. */
export const waitMs = (step: { minutes: number }) => step.minutes * MINUTE;
