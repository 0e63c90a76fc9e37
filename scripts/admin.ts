// The admin CLI: `npm run -s admin -- <command> [options] [--json]`. See `npm run -s admin -- help`.
import { parseArgs } from "node:util";
import { defaultCtx } from "@/lib/context";
import { closeDb } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/database";
import { ApiError } from "@/lib/errors";
import { commands } from "./admin/commands";

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name} ${command.summary}`);
  return `usage: npm run -s admin -- <command> [options] [--json]\n\ncommands:\n${lines.join("\n")}\n`;
}

function fail(message: string, exitCode: number): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(exitCode);
}

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (!name || name === "help" || name === "--help") {
    process.stdout.write(usage());
    return;
  }
  const command = commands[name];
  if (!command) fail(`unknown command "${name}"\n\n${usage()}`, 2);

  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({ args, options: { ...command.options, json: { type: "boolean" } }, strict: true, allowPositionals: false }));
  } catch (error) {
    fail(`${(error as Error).message}\nusage: ${name} ${command.summary}`, 2);
  }
  const missing = command.required.filter((option) => values[option] === undefined);
  if (missing.length > 0) fail(`missing ${missing.map((m) => `--${m}`).join(", ")}\nusage: ${name} ${command.summary}`, 2);

  const database = await openDatabase();
  try {
    const result = await command.run(defaultCtx(), values);
    if (values.json) process.stdout.write(JSON.stringify(result) + "\n");
    else for (const [key, value] of Object.entries(result)) process.stdout.write(`${key}: ${typeof value === "object" ? JSON.stringify(value, null, 2) : value}\n`);
  } catch (error) {
    if (error instanceof ApiError) fail(`${error.code}${error.param ? ` (${error.param})` : ""}: ${error.message}`, 1);
    throw error;
  } finally {
    await closeDb();
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error), 1));
