import "server-only";

import type { Inngest, InngestFunction } from "inngest";

/** What the embedded executor needs to know of one function, read from its options once at start. */
export interface RegisteredFunction {
  slug: string;
  fn: InngestFunction.Any;
  events: string[];
  crons: string[];
  /** Pending runs are cancelled by an event whose `data[key]` equals the run's. */
  cancelOn: { event: string; key: string }[];
  maxAttempts: number;
  /** Runs with the same `event.data[key]` run one at a time, in the order they became due. */
  concurrencyKey: string | null;
}

// Inngest's default when a function does not set `retries`.
const DEFAULT_RETRIES = 3;
const EVENT_DATA_KEY = /^\s*event\.data\.(\w+)\s*$/;
const MATCH = /^\s*(?:event\.data\.(\w+)\s*==\s*async\.data\.(\w+)|async\.data\.(\w+)\s*==\s*event\.data\.(\w+))\s*$/;

interface TriggerOption {
  event?: string;
  cron?: string;
  if?: string;
}

interface FunctionOptions {
  triggers?: TriggerOption[];
  cancelOn?: { event: string | { name: string }; if?: string }[];
  retries?: number;
  concurrency?: number | { key?: string; limit?: number } | { key?: string; limit?: number }[];
}

/**
 * Reads triggers, cancellation, retries and concurrency from each function. The embedded
 * executor supports a subset of Inngest; a function asking for more (trigger
 * expressions, other cancellation expressions) fails here, at start, rather
 * than misbehaving later.
 */
export function registerFunctions(client: Inngest.Any, functions: InngestFunction.Any[]): RegisteredFunction[] {
  return functions.map((fn) => {
    const slug = fn.id(client.id);
    const opts = (fn as unknown as { opts: FunctionOptions }).opts;
    const events: string[] = [];
    const crons: string[] = [];
    for (const trigger of opts.triggers ?? []) {
      if (trigger.if) throw new Error(`${slug}: trigger expressions are not supported by the embedded executor`);
      if (trigger.event) events.push(trigger.event);
      else if (trigger.cron) crons.push(trigger.cron);
    }
    const cancelOn = (opts.cancelOn ?? []).map((cancel) => {
      const event = typeof cancel.event === "string" ? cancel.event : cancel.event.name;
      const match = cancel.if ? MATCH.exec(cancel.if) : null;
      const left = match?.[1] ?? match?.[4];
      const right = match?.[2] ?? match?.[3];
      if (!left || left !== right)
        throw new Error(`${slug}: cancelOn supports only "event.data.<key> == async.data.<key>"`);
      return { event, key: left };
    });
    return {
      slug,
      fn,
      events,
      crons,
      cancelOn,
      maxAttempts: (opts.retries ?? DEFAULT_RETRIES) + 1,
      concurrencyKey: readConcurrencyKey(slug, opts.concurrency),
    };
  });
}

function readConcurrencyKey(slug: string, concurrency: FunctionOptions["concurrency"]): string | null {
  if (concurrency === undefined) return null;
  const key =
    typeof concurrency === "object" && !Array.isArray(concurrency) && concurrency.limit === 1
      ? EVENT_DATA_KEY.exec(concurrency.key ?? "")
      : null;
  if (!key) throw new Error(`${slug}: concurrency supports only { key: "event.data.<key>", limit: 1 }`);
  return key[1]!;
}
