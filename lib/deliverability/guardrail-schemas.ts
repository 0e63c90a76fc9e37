import { z } from "zod";

// Schemas only (no database): the settings card checks input in the browser with the rules the action applies.

/** docs/readings.md, "Guardrails: pausing on harm": the defaults a workspace starts with. */
export const DEFAULT_GUARDRAIL_THRESHOLDS = {
  complaintWarnPercent: 0.15,
  complaintStopPercent: 0.3,
  hardBounceWarnPercent: 2.5,
  hardBounceStopPercent: 5,
  minimumDelivered: 500,
} as const;

const percent = z.coerce
  .number({ error: "must be a number" })
  .gt(0, "must be more than 0 %")
  .max(100, "must be at most 100 %");

/** A workspace's thresholds: each warning below its stop, so a warning can come before the pause. */
export const guardrailThresholdsSchema = z
  .strictObject({
    complaintWarnPercent: percent,
    complaintStopPercent: percent,
    hardBounceWarnPercent: percent,
    hardBounceStopPercent: percent,
    minimumDelivered: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(10_000_000, "must be at most 10,000,000"),
  })
  .superRefine((value, issue) => {
    if (value.complaintWarnPercent >= value.complaintStopPercent)
      issue.addIssue({ code: "custom", path: ["complaintWarnPercent"], message: "must be below the stop threshold" });
    if (value.hardBounceWarnPercent >= value.hardBounceStopPercent)
      issue.addIssue({ code: "custom", path: ["hardBounceWarnPercent"], message: "must be below the stop threshold" });
  });
export type GuardrailThresholds = z.output<typeof guardrailThresholdsSchema>;
export type GuardrailThresholdsInput = z.input<typeof guardrailThresholdsSchema>;
