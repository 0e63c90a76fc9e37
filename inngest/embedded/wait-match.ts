import "server-only";

import type { RunEvent } from "@/lib/db/schema";

/**
 * What a waiting run waits for, as the database keeps it: the event's name, and the conditions the
 * event must meet as one JSON object it must contain (`{ data: { contactId: "ct_1" } }`), one of
 * them also written as `key` so that an arriving event finds its waits through an index.
 */
export interface WaitMatch {
  event: string;
  /** One condition as "path=json" (`data.contactId="ct_1"`), or null when the wait takes any event of the name. */
  key: string | null;
  match: Record<string, unknown>;
}

/** Conditions an event may meet: the SDK sends `match: "data.x"` as `event.data.x == async.data.x`. */
type Operand = { path: string[]; of: "event" | "async" } | { value: unknown };

const TOKEN =
  /\s*(?:(&&)|(==)|((?:event|async)(?:\.\w+)+)|("(?:[^"\\]|\\.)*")|'([^'\\]*)'|(-?\d+(?:\.\d+)?(?![\w.]))|(true|false|null)(?!\w))/y;

/**
 * Reads a waitForEvent's `if` into equalities between a field of the awaited event (`async.…`) and a
 * literal or a field of the run's triggering event (`event.…`), joined by `&&`: the expressions `match`
 * produces and the common hand-written ones. Anything else (other operators, `||`, two `async` fields)
 * is refused with the reason, and the run fails rather than wait on a condition read wrongly.
 */
export function readWaitMatch(
  eventName: string,
  expression: string | undefined,
  trigger: RunEvent,
): WaitMatch | { unsupported: string } {
  const conditions: { path: string[]; value: unknown }[] = [];
  if (expression?.trim()) {
    const tokens: { kind: "and" | "eq" | "operand"; operand?: Operand }[] = [];
    let at = 0;
    while (at < expression.length && expression.slice(at).trim() !== "") {
      TOKEN.lastIndex = at;
      const m = TOKEN.exec(expression);
      if (!m) return { unsupported: `waitForEvent expression not supported by the embedded executor: ${expression}` };
      at = TOKEN.lastIndex;
      if (m[1]) tokens.push({ kind: "and" });
      else if (m[2]) tokens.push({ kind: "eq" });
      else if (m[3]) {
        const [of, ...path] = m[3].split(".");
        tokens.push({ kind: "operand", operand: { of: of as "event" | "async", path } });
      } else if (m[4] !== undefined) tokens.push({ kind: "operand", operand: { value: JSON.parse(m[4]) } });
      else if (m[5] !== undefined) tokens.push({ kind: "operand", operand: { value: m[5] } });
      else if (m[6] !== undefined) tokens.push({ kind: "operand", operand: { value: Number(m[6]) } });
      else tokens.push({ kind: "operand", operand: { value: JSON.parse(m[7]!) } });
    }
    for (let i = 0; i < tokens.length; i += 4) {
      const [left, eq, right, and] = tokens.slice(i, i + 4);
      const wellFormed =
        left?.kind === "operand" &&
        eq?.kind === "eq" &&
        right?.kind === "operand" &&
        (and === undefined ? i + 3 === tokens.length : and.kind === "and" && i + 4 < tokens.length);
      const condition = wellFormed ? readCondition(left.operand!, right.operand!, trigger) : null;
      if (!condition)
        return { unsupported: `waitForEvent expression not supported by the embedded executor: ${expression}` };
      conditions.push(condition);
    }
  }
  const match: Record<string, unknown> = {};
  for (const { path, value } of conditions) {
    let into = match;
    for (const part of path.slice(0, -1)) {
      const next = into[part];
      if (next !== undefined && (typeof next !== "object" || next === null))
        return { unsupported: `waitForEvent expression compares a field and one inside it: ${expression}` };
      into = (into[part] ??= {}) as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    // Two different values for one field: no event meets both; the wait can only time out.
    if (last in into && JSON.stringify(into[last]) !== JSON.stringify(value)) return never(eventName);
    into[last] = value;
  }
  const first = conditions[0];
  return { event: eventName, key: first ? matchKey(first.path, first.value) : null, match };
}

/** `async.x == <literal or event.y>`, either way round; the triggering event's field read now. */
function readCondition(a: Operand, b: Operand, trigger: RunEvent): { path: string[]; value: unknown } | null {
  const [awaited, other] = "of" in a && a.of === "async" ? [a, b] : [b, a];
  if (!("of" in awaited) || awaited.of !== "async") return null;
  if ("of" in other && other.of === "async") return null;
  const value = "of" in other ? readPath(trigger, other.path) : other.value;
  // A field missing from the triggering event compares as null, as Inngest's expressions read it.
  const scalar = value === undefined ? null : value;
  if (scalar !== null && typeof scalar === "object") return null;
  return { path: awaited.path, value: scalar };
}

function never(eventName: string): WaitMatch {
  // Every key an event meets has a "=": this one none.
  return { event: eventName, key: "(never)", match: {} };
}

function readPath(from: unknown, path: string[]): unknown {
  let value = from;
  for (const part of path) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function matchKey(path: string[], value: unknown): string {
  return `${path.join(".")}=${JSON.stringify(value)}`;
}

/** Leaves a key may name: fields of nested objects (not inside arrays), up to this depth and count. */
const MAX_DEPTH = 8;
const MAX_KEYS = 1000;

/**
 * Every condition key an arriving event meets: one per scalar field, so that the waits it may resume are
 * found by the index on (event name, key), the way Inngest's own pause index reads equality expressions.
 */
export function matchKeysOf(event: RunEvent): string[] {
  const keys: string[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (keys.length >= MAX_KEYS) return;
    if (value !== null && typeof value === "object") {
      if (Array.isArray(value) || path.length >= MAX_DEPTH) return;
      for (const [key, inner] of Object.entries(value)) walk(inner, [...path, key]);
      return;
    }
    if (value !== undefined && path.length > 0) keys.push(matchKey(path, value));
  };
  walk(event, []);
  return keys;
}
