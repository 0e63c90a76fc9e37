import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { enterDueDateAttributes } from "@/lib/automations/enter-date-attribute";

/**
 * Hourly, five past: date_attribute automations take in the people whose date comes round today in their
 * own time zone, so each enters in the first pass after their midnight (a zone's offset may be a half hour).
 */
export const automationDates = inngest.createFunction(
  { id: "automation-dates", triggers: [{ cron: "5 * * * *" }], retries: 2 },
  async ({ step }) => step.run("enter-due", () => enterDueDateAttributes(workflowCtx())),
);
