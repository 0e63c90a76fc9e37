import { env, type Env } from "@/lib/env";

type WorkflowConfig = Pick<Env, "NODE_ENV" | "INNGEST_DEV" | "INNGEST_BASE_URL" | "INNGEST_SIGNING_KEY">;

/**
 * Workflows run on an Inngest server when one is configured (INNGEST_DEV for
 * the dev server, INNGEST_BASE_URL for a self-hosted one, INNGEST_SIGNING_KEY
 * for Inngest Cloud); otherwise the embedded executor runs them in-process
 * with its state in PostgreSQL.
 */
export function workflowsAreEmbedded(config: Omit<WorkflowConfig, "NODE_ENV"> = env()): boolean {
  return !config.INNGEST_DEV && !config.INNGEST_BASE_URL && !config.INNGEST_SIGNING_KEY;
}

/**
 * Why this process must not serve workflows, or null. Whoever can POST to
 * /api/inngest unsigned can replay a function with forged step results (mark a
 * campaign sent without mailing it, skip a de-duplication), so a production
 * start with an Inngest server insists on the signing key, and refuses the dev
 * server's mode, in which the SDK checks no signature at all.
 */
export function workflowConfigProblem(config: WorkflowConfig = env()): string | null {
  if (workflowsAreEmbedded(config) || config.NODE_ENV !== "production") return null;
  if (config.INNGEST_DEV) {
    return "INNGEST_DEV is set in production: the Inngest dev mode accepts unsigned calls to /api/inngest. Unset it and give INNGEST_BASE_URL (self-hosted) and INNGEST_SIGNING_KEY.";
  }
  if (!config.INNGEST_SIGNING_KEY) {
    return "INNGEST_BASE_URL is set without INNGEST_SIGNING_KEY: /api/inngest would run workflow steps for anyone. Give the signing key of your Inngest server.";
  }
  return null;
}
