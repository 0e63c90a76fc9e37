// Runs once when a Next.js server starts: the embedded workflow executor lives in the app process.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { workflowConfigProblem } = await import("./inngest/mode");
  const workflowProblem = workflowConfigProblem();
  if (workflowProblem) throw new Error(`refusing to start: ${workflowProblem}`);
  if (!process.env.DATABASE_URL) return;
  const { startWorkflows } = await import("./inngest/start");
  await startWorkflows();
}
