import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";

import { env, type LogLevel } from "@/lib/env";

// The one logger of the app, the workflows and the CLI: a JSON object per line (pino), fields in
// snake_case, errors under `err` with their stack. No "server-only": the CLI imports lib modules that log.
// Callers ask for logger() when they log, never keep it at module load: tests swap it (captureLogs).

export type { Logger };

let root: Logger | null = null;
let destination: DestinationStream | number = 1;
let levelOverride: LogLevel | null = null;

/**
 * Errors as pino writes them, less a failed query's parameters: Drizzle puts them in the error's
 * `params` and in its message, and they can be anything a request carried (a webhook signing secret,
 * an address). The query text, with its placeholders, and the cause stay.
 */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (!error || typeof error !== "object" || !("params" in error)) return serialized;
  const withoutParams = (text: unknown) =>
    typeof text === "string" ? text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, "\nparams: [redacted]") : text;
  const { params: _params, ...rest } = serialized;
  return { ...rest, message: withoutParams(rest.message), stack: withoutParams(rest.stack) };
}

function createLogger(): Logger {
  const { LOG_LEVEL, NODE_ENV } = env();
  const options: LoggerOptions = {
    level: levelOverride ?? LOG_LEVEL,
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError },
  };
  if (NODE_ENV === "development" && destination === 1) {
    // `npm run dev` only: pino-pretty (a dev dependency) formats the lines in a worker thread.
    return pino({
      ...options,
      transport: { target: "pino-pretty", options: { destination: 1, ignore: "pid,hostname", singleLine: true } },
    });
  }
  // Levels by name ("level":"error"), not pino's numbers. Writes are synchronous on a file descriptor:
  // no worker thread inside the Next.js server, and no line lost when the process exits right after.
  const stream = typeof destination === "number" ? pino.destination({ dest: destination, sync: true }) : destination;
  return pino({ ...options, formatters: { level: (label) => ({ level: label }) } }, stream);
}

/** The logger, configured by LOG_LEVEL on first use. */
export function logger(): Logger {
  root ??= createLogger();
  return root;
}

/**
 * Sends the lines to `to` from now on: a file descriptor (the admin CLI takes 2, its stdout being its
 * result) or a stream (tests), at `level` when given instead of LOG_LEVEL.
 */
export function sendLogsTo(to: DestinationStream | number, level?: LogLevel): void {
  destination = to;
  levelOverride = level ?? null;
  root = null;
}

/** Back to stdout at LOG_LEVEL. */
export function resetLogger(): void {
  sendLogsTo(1);
}
