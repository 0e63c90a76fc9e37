import { inngest } from "@/inngest/client";

/**
 * Cron functions for the two-instance test: the test makes them due by moving `workflow_crons.next_at`
 * into the past, and each run records which instance worked on it (its result).
 */
export const instanceCrons = Array.from({ length: 8 }, (_, index) => index).map((index) =>
  inngest.createFunction(
    { id: `two-instances-cron-${index}`, triggers: [{ cron: "* * * * *" }], retries: 0 },
    async ({ step }) => step.run("tick", () => process.env.INSTANCE_NAME ?? "unnamed"),
  ),
);
