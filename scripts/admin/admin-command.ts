import type { ParseArgsConfig } from "node:util";

import type { Ctx } from "@/lib/context";

/** The parsed options of one command line, by option name. */
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface AdminCommand {
  summary: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  required: string[];
  /** Printed as one indented JSON document rather than key by key (`--json` still prints it on one line). */
  document?: boolean;
  /** Returns the command's JSON object (snake_case keys: a stable contract for scripts). */
  run(ctx: Ctx, values: Values): Promise<Record<string, unknown>>;
}

/** A required string option (the command checked it was given). */
export const str = (values: Values, name: string) => values[name] as string;
/** An optional string option. */
export const opt = (values: Values, name: string) => values[name] as string | undefined;
/** The option declaration of a string option. */
export const string = { type: "string" } as const;
