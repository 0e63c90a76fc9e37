import { parseArgs } from "node:util";

import type { Ctx } from "@/lib/context";
import { ApiError } from "@/lib/errors";

import { commands } from "./commands";

export interface AdminRun {
  /** 0 done, 1 refused, 2 usage. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Opens the database for one command and closes it afterwards (the CLI), or lends an open one (tests). */
export type WithDatabase = <T>(fn: (ctx: Ctx) => Promise<T>) => Promise<T>;

class AdminExit extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name} ${command.summary}`);
  return `usage: npm run -s admin -- <command> [options] [--json]\n\ncommands:\n${lines.join("\n")}\n`;
}

/**
 * One admin command, from its arguments to what it prints and its exit code.
 * The database is opened only once the arguments are known to be good.
 */
export async function runAdmin(argv: string[], withDatabase: WithDatabase): Promise<AdminRun> {
  try {
    return { code: 0, stdout: await run(argv, withDatabase), stderr: "" };
  } catch (error) {
    if (error instanceof AdminExit) return { code: error.code, stdout: "", stderr: `error: ${error.message}\n` };
    if (error instanceof ApiError)
      return {
        code: 1,
        stdout: "",
        stderr: `error: ${error.code}${error.param ? ` (${error.param})` : ""}: ${error.message}\n`,
      };
    return { code: 1, stdout: "", stderr: `error: ${error instanceof Error ? error.message : String(error)}\n` };
  }
}

async function run(argv: string[], withDatabase: WithDatabase): Promise<string> {
  const [name, ...args] = argv;
  if (!name || name === "help" || name === "--help") return usage();
  const command = commands[name];
  if (!command) throw new AdminExit(2, `unknown command "${name}"\n\n${usage()}`);

  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: { ...command.options, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new AdminExit(2, `${(error as Error).message}\nusage: ${name} ${command.summary}`);
  }
  const missing = command.required.filter((option) => values[option] === undefined);
  if (missing.length > 0)
    throw new AdminExit(2, `missing ${missing.map((m) => `--${m}`).join(", ")}\nusage: ${name} ${command.summary}`);

  const result = await withDatabase((ctx) => command.run(ctx, values));
  if (values.json) return JSON.stringify(result) + "\n";
  if (command.document) return JSON.stringify(result, null, 2) + "\n";
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${typeof value === "object" ? JSON.stringify(value, null, 2) : value}\n`)
    .join("");
}
