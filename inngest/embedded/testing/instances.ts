import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/** A child process of the two-instance test, with the JSON lines it printed (its log lines, its results). */
export interface Instance {
  name: string;
  child: ChildProcess;
  lines: Record<string, unknown>[];
}

/** Spawns a TypeScript entry as the app runs its code (tsx, react-server), on the test's database (inherited env). */
export function spawnInstance(name: string, entry: string, env: Record<string, string> = {}): Instance {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", entry], {
    env: { ...process.env, ...env, INSTANCE_NAME: name },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      lines.push({ msg: line });
    }
  });
  return { name, child, lines };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` until it holds; fails as soon as one of the instances has exited (none should on its own). */
export async function waitUntil(
  done: () => boolean | Promise<boolean>,
  instances: Instance[],
  what: string,
): Promise<void> {
  while (!(await done())) {
    const dead = instances.find((i) => i.child.exitCode !== null || i.child.signalCode !== null);
    if (dead)
      throw new Error(
        `instance ${dead.name} exited (${dead.child.exitCode ?? dead.child.signalCode}) while waiting for ${what}`,
      );
    await pause(25);
  }
}

/** Waits for an instance to exit on its own. */
export function exited(instance: Instance): Promise<number | null> {
  if (instance.child.exitCode !== null) return Promise.resolve(instance.child.exitCode);
  return new Promise((resolve) => instance.child.once("exit", (code) => resolve(code)));
}

export async function killInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const gone = new Promise((resolve) => instance.child.once("exit", resolve));
  instance.child.kill("SIGKILL");
  await gone;
}
