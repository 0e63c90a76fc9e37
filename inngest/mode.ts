/**
 * Workflows run on an Inngest server when one is configured (INNGEST_DEV for
 * the dev server, INNGEST_BASE_URL for a self-hosted one, INNGEST_SIGNING_KEY
 * for Inngest Cloud); otherwise the embedded executor runs them in-process
 * with its state in PostgreSQL.
 */
export function workflowsAreEmbedded(env: Partial<Record<string, string>> = process.env): boolean {
  return !env.INNGEST_DEV && !env.INNGEST_BASE_URL && !env.INNGEST_SIGNING_KEY;
}
