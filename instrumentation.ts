// Runs once when a Next.js server starts: the embedded workflow executor lives in the app process.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { workflowConfigProblem } = await import("./inngest/mode");
  const workflowProblem = workflowConfigProblem();
  if (workflowProblem) throw new Error(`refusing to start: ${workflowProblem}`);
  // Starting without a transport stays possible (a fresh `npm start`), but never silently undelivered.
  // Not during `next build`, whose prerendering may register too.
  const { unsetMailTransportWarning } = await import("./lib/mail/mailbox-enabled");
  const mailWarning = process.env.NEXT_PHASE === "phase-production-build" ? null : unsetMailTransportWarning();
  if (mailWarning) console.warn(`warning: ${mailWarning}`);
  if (!process.env.DATABASE_URL) return;
  const { startWorkflows } = await import("./inngest/start");
  await startWorkflows();
  if (process.env.BOUNCE_SMTP_PORT && process.env.NEXT_PHASE !== "phase-production-build") {
    if (!process.env.BOUNCE_DOMAIN) throw new Error("refusing to start: BOUNCE_SMTP_PORT needs BOUNCE_DOMAIN, the only domain it takes mail for");
    const { startBounceListener } = await import("./lib/deliverability/bounce-listener");
    const { defaultCtx } = await import("./lib/context");
    await startBounceListener(defaultCtx, { port: Number(process.env.BOUNCE_SMTP_PORT), host: process.env.BOUNCE_SMTP_HOST, domain: process.env.BOUNCE_DOMAIN });
    console.log(`bounce listener: SMTP on port ${process.env.BOUNCE_SMTP_PORT} for @${process.env.BOUNCE_DOMAIN}`);
  }
}
