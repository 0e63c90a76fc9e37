import { spawn, type ChildProcess } from "node:child_process";

/**
 * A worker process (worker-child.ts: the embedded executor as the app runs it, with a one-second
 * lease) on this process's database, with `env` over this process's environment. Started with node
 * itself, not npx, so that a signal reaches the worker and not a wrapper.
 */
export function spawnWorker(env: Record<string, string> = {}): ChildProcess & { exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "inngest/embedded/testing/worker-child.ts"],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return Object.assign(child, {
    exited: new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
  });
}
