import { inngest } from "@/inngest/client";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { enterDueDateAttributes } from "@/lib/automations/enter-date-attribute";

/** Daily, just after midnight UTC: date_attribute automations take in the people whose date comes round today. */
export const automationDates = inngest.createFunction(
  { id: "automation-dates", triggers: [{ cron: "5 0 * * *" }], retries: 2 },
  async ({ step }) => step.run("enter-due", () => enterDueDateAttributes(workflowCtx())),
);
