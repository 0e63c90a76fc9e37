// Next.js bundles the app apart from scripts/serve.ts, so the executor started by instrumentation.ts
// is handed to the serve process's shutdown through a global symbol. No imports: serve.ts loads this
// outside the server bundle.
const RUNNING = Symbol.for("mailservice.embeddedWorkflows");

interface Stoppable {
  stop(): Promise<void>;
}

type WithExecutor = typeof globalThis & { [RUNNING]?: Stoppable };

export function setRunningExecutor(executor: Stoppable): void {
  (globalThis as WithExecutor)[RUNNING] = executor;
}

/** On shutdown, before the database closes: lets the runs in hand finish their step and stops polling. */
export async function stopRunningExecutor(): Promise<void> {
  const executor = (globalThis as WithExecutor)[RUNNING];
  delete (globalThis as WithExecutor)[RUNNING];
  await executor?.stop();
}

/** Whether this process runs the embedded executor now (readiness). */
export function executorIsRunning(): boolean {
  return (globalThis as WithExecutor)[RUNNING] !== undefined;
}
