import type { LogLevel } from "@/lib/env";
import { resetLogger, sendLogsTo } from "@/lib/log/logger";

/** A log line as written: pino's fields (level, time, msg) and the caller's. */
export type LogLine = Record<string, unknown> & { level: string; msg: string };

export interface CapturedLogs {
  /** Every line written since captureLogs(), parsed. */
  lines: LogLine[];
  /** Those with this message. */
  withMessage(msg: string): LogLine[];
  /** Lines go back to stdout at LOG_LEVEL. */
  restore(): void;
}

/**
 * Captures the real logger's output (the same JSON a server writes), at `level` whatever LOG_LEVEL
 * says: the test run keeps its own output quiet, and a test still asserts on the lines.
 */
export function captureLogs(level: LogLevel = "debug"): CapturedLogs {
  const lines: LogLine[] = [];
  sendLogsTo({ write: (line: string) => void lines.push(JSON.parse(line) as LogLine) }, level);
  return {
    lines,
    withMessage: (msg) => lines.filter((line) => line.msg === msg),
    restore: resetLogger,
  };
}
