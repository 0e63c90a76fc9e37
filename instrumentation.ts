// Runs once when a Next.js server starts: the embedded workflow executor lives in the app process.
export async function register(): Promise<void> {
  // Read directly, not through lib/env: Next.js inlines it, so the edge bundle drops everything below.
  // eslint-disable-next-line no-restricted-properties -- only the literal process.env.NEXT_RUNTIME is inlined
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Parsing the configuration first refuses a start with a bad variable, naming each one.
  const { env } = await import("./lib/env");
  const config = env();
  const { logger } = await import("./lib/log/logger");
  const { workflowConfigProblem } = await import("./lib/runtime/workflow-mode");
  const workflowProblem = workflowConfigProblem();
  if (workflowProblem) throw new Error(`refusing to start: ${workflowProblem}`);
  // Starting without a transport stays possible (a fresh `npm start`), but never silently undelivered.
  // Not during `next build`, whose prerendering may register too.
  const building = config.NEXT_PHASE === "phase-production-build";
  const { unsetMailTransportWarning } = await import("./lib/mail/mailbox-enabled");
  const mailWarning = building ? null : unsetMailTransportWarning();
  if (mailWarning) logger().warn(mailWarning);
  if (!config.DATABASE_URL) return;
  // Before any request: the events that routes and actions emit start these workflows.
  const { connectWorkflowEvents } = await import("./inngest/emit");
  connectWorkflowEvents();
  const { startWorkflows } = await import("./inngest/start");
  await startWorkflows();
  if (config.BOUNCE_SMTP_PORT && !building) {
    if (!config.BOUNCE_DOMAIN)
      throw new Error("refusing to start: BOUNCE_SMTP_PORT needs BOUNCE_DOMAIN, the only domain it takes mail for");
    const { startBounceListener } = await import("./lib/deliverability/bounce-listener");
    const { defaultCtx } = await import("./lib/context");
    await startBounceListener(defaultCtx, {
      port: config.BOUNCE_SMTP_PORT,
      host: config.BOUNCE_SMTP_HOST,
      domain: config.BOUNCE_DOMAIN,
    });
    logger().info(
      { port: config.BOUNCE_SMTP_PORT, domain: config.BOUNCE_DOMAIN },
      "bounce listener: SMTP for the bounce domain",
    );
  }
}
